// Facts of the given entities in the given tables. A FACT edge carries its table's id (indexed:
// `fact_table`), so the search starts at each table's facts and never reads a hub entity's
// facts in other tables. `row` keeps a key listed in several rows apart (its values pair up
// per row in the gold records).
UNWIND $table_ids AS tid
MATCH (a:Entity)-[f:FACT {table_id: tid}]->(v)
WHERE a.entity_id IN $entity_ids
RETURN DISTINCT a.entity_id AS entity_id, f.relation AS relation, f.table_id AS table_id,
       f.row AS row,
       f.text AS cell_text, CASE WHEN v:Entity THEN 'entity' ELSE 'value' END AS kind,
       coalesce(v.entity_id, v.value_id) AS id,
       CASE WHEN v:Entity THEN coalesce(v.name, v.entity_id) ELSE coalesce(f.text, v.text) END AS name
ORDER BY entity_id, relation, id
