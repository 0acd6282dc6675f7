// Rename the FACT edges of one table column to the header's current relation (found through
// the `fact_table` index on FACT.table_id).
UNWIND $rows AS row
MATCH ()-[f:FACT {table_id: row.table_id}]->()
WHERE f.column = row.column
SET f.relation = row.relation
