// Entities a random walk can start from: those with a FACT edge or a page that links out.
MATCH (e:Entity)
WHERE EXISTS { (e)-[:FACT]->() } OR EXISTS { (e)<-[:ABOUT]-(:Page)-[:LINKS_TO]->(:Page) }
RETURN e.entity_id AS ref
ORDER BY ref
