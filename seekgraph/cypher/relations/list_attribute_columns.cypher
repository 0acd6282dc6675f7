// Attribute columns of kept tables with their header key and the relation their facts carry.
MATCH (t:Table {status: 'kept'})-[:HAS_COLUMN]->(c:Column {role: 'attribute'})-[:HAS_HEADER]->(h:Header)
RETURN t.table_id AS table_id, c.index AS column, h.key AS key, c.relation AS relation
