// Facts of the given entities, optionally only from $table_ids and only $relations (null = all).
UNWIND $entity_ids AS eid
MATCH (:Entity {entity_id: eid})-[f:FACT]->(v)
WHERE ($table_ids IS NULL OR f.table_id IN $table_ids)
  AND ($relations IS NULL OR f.relation IN $relations)
RETURN DISTINCT eid AS entity_id, f.relation AS relation, f.table_id AS table_id, f.text AS cell_text,
       CASE WHEN v:Entity THEN 'entity' ELSE 'value' END AS kind,
       coalesce(v.entity_id, v.value_id) AS id,
       CASE WHEN v:Entity THEN coalesce(v.name, v.entity_id) ELSE coalesce(f.text, v.text) END AS name
ORDER BY entity_id, relation, id
