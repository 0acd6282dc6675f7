// Every [n, r, o] that holds in the graph for one node n (an Entity or Value): table facts both
// ways (`r@table`, `~r@table`: the row's table names where a reader checks them) first, then page
// links both ways (`links_to`, `linked_from`), used only when no fact connects; capped at $limit.
CALL () {
  MATCH (n:Entity {entity_id: $ref}) RETURN n
  UNION
  MATCH (n:Value {value_id: $ref}) RETURN n
}
CALL (n) {
  MATCH (n)-[f:FACT]->(o)
  RETURN 0 AS rank, f.relation + coalesce('@' + f.table_id, '') AS relation, o AS other
  UNION
  MATCH (o)-[f:FACT]->(n)
  RETURN 0 AS rank, '~' + f.relation + coalesce('@' + f.table_id, '') AS relation, o AS other
  UNION
  MATCH (n)<-[:ABOUT]-(:Page)-[:LINKS_TO]->(:Page)-[:ABOUT]->(o)
  RETURN 1 AS rank, 'links_to' AS relation, o AS other
  UNION
  MATCH (n)<-[:ABOUT]-(:Page)<-[:LINKS_TO]-(:Page)-[:ABOUT]->(o)
  RETURN 1 AS rank, 'linked_from' AS relation, o AS other
}
WITH n, rank, relation, other WHERE other <> n
RETURN relation, coalesce(other.entity_id, other.value_id) AS ref,
       CASE WHEN other:Value THEN 'Value' ELSE 'Entity' END AS label,
       coalesce(other.name, other.text, other.entity_id, other.value_id) AS name
ORDER BY rank, relation, ref
LIMIT $limit
