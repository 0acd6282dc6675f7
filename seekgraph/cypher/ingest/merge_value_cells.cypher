// Unlinked cells: the row points to a typed, normalised value shared by equal cells.
UNWIND $rows AS row
MATCH (r:Row {row_id: row.row_id})
MERGE (v:Value {value_id: row.value_id})
ON CREATE SET v.kind = row.kind, v.text = row.text, v.normalized = row.normalized
MERGE (r)-[h:HAS_CELL {column: row.column}]->(v)
SET h.text = row.text
