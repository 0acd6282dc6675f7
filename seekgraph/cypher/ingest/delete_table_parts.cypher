// A table whose content or cleaning changed: drop its rows, columns and facts before rewriting.
UNWIND $rows AS row
MATCH (t:Table {table_id: row.table_id})
OPTIONAL MATCH (t)-[:HAS_ROW]->(r:Row)
OPTIONAL MATCH (r)-[:ANCHOR]->(:Entity)-[f:FACT {table_id: row.table_id}]->()
DELETE f
WITH DISTINCT t, r
DETACH DELETE r
WITH DISTINCT t
OPTIONAL MATCH (t)-[:HAS_COLUMN]->(c:Column)
DETACH DELETE c
WITH DISTINCT t
OPTIONAL MATCH (p:Page)-[:RENDERS]->(t)
DETACH DELETE p
REMOVE t.content_hash
