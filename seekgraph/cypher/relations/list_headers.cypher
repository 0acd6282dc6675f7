// Header keys of attribute columns of kept tables, with how many columns use each.
MATCH (t:Table {status: 'kept'})-[:HAS_COLUMN]->(c:Column {role: 'attribute'})-[:HAS_HEADER]->(h:Header)
RETURN h.key AS key, count(c) AS columns
ORDER BY key
