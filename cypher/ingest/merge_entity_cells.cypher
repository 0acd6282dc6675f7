// Linked cells: the row points to the (shared) entity of each link target.
UNWIND $rows AS row
MATCH (r:Row {row_id: row.row_id})
MERGE (e:Entity {entity_id: row.entity_id})
ON CREATE SET e.name = row.name
MERGE (r)-[h:HAS_CELL {column: row.column}]->(e)
SET h.text = row.text
