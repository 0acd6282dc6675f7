// Rename the FACT edges of one table column to the header's current relation.
UNWIND $rows AS row
MATCH (t:Table {table_id: row.table_id})-[:HAS_ROW]->(:Row)-[:ANCHOR]->(a:Entity)
MATCH (a)-[f:FACT {table_id: row.table_id, column: row.column}]->()
SET f.relation = row.relation
