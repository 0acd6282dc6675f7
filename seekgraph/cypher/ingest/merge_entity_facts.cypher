// Knowledge-graph edges anchor -relation-> linked attribute, one per table row and column (with
// the cell's text: a long sentence with links is prose, not an attribute).
UNWIND $rows AS row
MATCH (a:Entity {entity_id: row.anchor_id})
MATCH (x:Entity {entity_id: row.target_id})
MERGE (a)-[f:FACT {table_id: row.table_id, row: row.row, column: row.column}]->(x)
SET f.relation = row.relation, f.text = row.text
