// Rows and their anchor (key-column) entity.
UNWIND $rows AS row
MATCH (t:Table {table_id: row.table_id})
MERGE (r:Row {row_id: row.row_id})
SET r.table_id = row.table_id, r.index = row.index
MERGE (t)-[:HAS_ROW]->(r)
FOREACH (anchor IN CASE WHEN row.anchor_id IS NULL THEN [] ELSE [row.anchor_id] END |
  MERGE (e:Entity {entity_id: anchor})
  ON CREATE SET e.name = row.anchor_name
  MERGE (r)-[:ANCHOR]->(e))
