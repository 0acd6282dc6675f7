// Entities a random walk can start from: those with a FACT edge (a table row's anchor) or a
// page that links out; `has_fact` lets the walk start from table rows when there are any.
MATCH (e:Entity)
WITH e, EXISTS { (e)-[:FACT]->() } AS has_fact
WHERE has_fact OR EXISTS { (e)<-[:ABOUT]-(:Page)-[:LINKS_TO]->(:Page) }
RETURN e.entity_id AS ref, has_fact
ORDER BY ref
