// Every [n, r, o] that holds in the graph for one node n (an Entity or Value): table facts both
// ways (`r@table`, `~r@table`: the row's table names where a reader checks them) first, then page
// links both ways (`links_to`, `linked_from`), used only when no fact connects; capped at $limit.
// `degree` counts the other node's facts in other tables and its page links: a walk that
// wants to go on to another page of the web (a chain deep enough to expand) steps to a node
// with edges beyond the table it came by.
CALL () {
  MATCH (n:Entity {entity_id: $ref}) RETURN n
  UNION
  MATCH (n:Value {value_id: $ref}) RETURN n
}
CALL (n) {
  MATCH (n)-[f:FACT]->(o)
  RETURN 0 AS rank, f.relation + coalesce('@' + f.table_id, '') AS relation, o AS other,
         f.table_id AS via
  UNION
  MATCH (o)-[f:FACT]->(n)
  RETURN 0 AS rank, '~' + f.relation + coalesce('@' + f.table_id, '') AS relation, o AS other,
         f.table_id AS via
  UNION
  MATCH (n)<-[:ABOUT]-(:Page)-[:LINKS_TO]->(:Page)-[:ABOUT]->(o)
  RETURN 1 AS rank, 'links_to' AS relation, o AS other, null AS via
  UNION
  MATCH (n)<-[:ABOUT]-(:Page)<-[:LINKS_TO]-(:Page)-[:ABOUT]->(o)
  RETURN 1 AS rank, 'linked_from' AS relation, o AS other, null AS via
}
WITH n, rank, relation, other, via WHERE other <> n
WITH rank, relation, other, via
  ORDER BY rank, relation, coalesce(other.entity_id, other.value_id)
LIMIT $limit
RETURN relation, coalesce(other.entity_id, other.value_id) AS ref,
       CASE WHEN other:Value THEN 'Value' ELSE 'Entity' END AS label,
       coalesce(other.name, other.text, other.entity_id, other.value_id) AS name,
       COUNT { (other)-[g:FACT]-() WHERE via IS NULL OR g.table_id <> via }
         + COUNT { (other)<-[:ABOUT]-(:Page)-[:LINKS_TO]-(:Page) } AS degree
