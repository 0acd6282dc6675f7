// Every [n, r, o] that holds in the graph for one node n (an Entity or Value): FACT edges both
// ways (`r`, `~r`) and page links both ways (`links_to`, `linked_from`); capped at $limit.
CALL () {
  MATCH (n:Entity {entity_id: $ref}) RETURN n
  UNION
  MATCH (n:Value {value_id: $ref}) RETURN n
}
CALL (n) {
  MATCH (n)-[f:FACT]->(o) RETURN f.relation AS relation, o AS other
  UNION
  MATCH (o)-[f:FACT]->(n) RETURN '~' + f.relation AS relation, o AS other
  UNION
  MATCH (n)<-[:ABOUT]-(:Page)-[:LINKS_TO]->(:Page)-[:ABOUT]->(o)
  RETURN 'links_to' AS relation, o AS other
  UNION
  MATCH (n)<-[:ABOUT]-(:Page)<-[:LINKS_TO]-(:Page)-[:ABOUT]->(o)
  RETURN 'linked_from' AS relation, o AS other
}
WITH n, relation, other WHERE other <> n
RETURN relation, coalesce(other.entity_id, other.value_id) AS ref,
       CASE WHEN other:Value THEN 'Value' ELSE 'Entity' END AS label,
       coalesce(other.name, other.text, other.entity_id, other.value_id) AS name
ORDER BY relation, ref
LIMIT $limit
