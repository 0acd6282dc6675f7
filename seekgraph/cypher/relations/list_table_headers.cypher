// The header keys of each kept table (headers of one table are different relations).
MATCH (t:Table {status: 'kept'})-[:HAS_COLUMN]->(c:Column {role: 'attribute'})-[:HAS_HEADER]->(h:Header)
RETURN t.table_id AS table_id, collect(DISTINCT h.key) AS keys
