// Rows and their anchors: every entity the key cell names (one row may have several).
UNWIND $rows AS row
MATCH (t:Table {table_id: row.table_id})
MERGE (r:Row {row_id: row.row_id})
SET r.table_id = row.table_id, r.index = row.index
MERGE (t)-[:HAS_ROW]->(r)
WITH r, row
UNWIND row.anchor_ids AS anchor
MERGE (e:Entity {entity_id: anchor})
MERGE (r)-[:ANCHOR]->(e)
