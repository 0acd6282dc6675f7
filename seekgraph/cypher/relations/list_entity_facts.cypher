// The facts of one entity: relation, source table and the target's key.
MATCH (a:Entity {entity_id: $entity_id})-[f:FACT]->(x)
RETURN f.relation AS relation, f.table_id AS table_id, f.row AS row, f.column AS column,
       coalesce(x.entity_id, x.value_id) AS target
ORDER BY table_id, row, column
