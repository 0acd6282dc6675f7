// Knowledge-graph edges anchor -relation-> typed value, one per table row and column.
UNWIND $rows AS row
MATCH (a:Entity {entity_id: row.anchor_id})
MATCH (x:Value {value_id: row.target_id})
MERGE (a)-[f:FACT {table_id: row.table_id, row: row.row, column: row.column}]->(x)
SET f.relation = row.relation, f.text = row.text
