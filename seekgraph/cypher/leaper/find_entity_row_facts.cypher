// One entity's facts in the given tables, with the row each comes from: the clues of a
// Reverse-Union task are taken from one row of one table, so each clue holds where it is read.
UNWIND $table_ids AS tid
MATCH (a:Entity {entity_id: $entity_id})-[f:FACT {table_id: tid}]->(v)
RETURN DISTINCT f.relation AS relation, f.table_id AS table_id, f.row AS row,
       CASE WHEN v:Entity THEN 'entity' ELSE 'value' END AS kind,
       coalesce(v.entity_id, v.value_id) AS id,
       CASE WHEN v:Entity THEN coalesce(v.name, v.entity_id) ELSE coalesce(f.text, v.text) END AS name
ORDER BY table_id, row, relation, id
