// Entities a random walk can start from: those with a FACT edge (a table row's anchor) or a
// page that links out; `has_fact` lets the walk start from table rows when there are any, and
// `bridged` from rows that lead on to another table (a fact to an entity with a page that has
// facts in another table): chains that can grow layer by layer across pages of the web.
MATCH (e:Entity)
WITH e, EXISTS { (e)-[:FACT]->() } AS has_fact
WHERE has_fact OR EXISTS { (e)<-[:ABOUT]-(:Page)-[:LINKS_TO]->(:Page) }
RETURN e.entity_id AS ref, has_fact,
       has_fact AND EXISTS {
         MATCH (e)-[f:FACT]-(o:Entity)-[g:FACT]-()
         WHERE o.entity_id STARTS WITH '/wiki/' AND g.table_id <> f.table_id
       } AS bridged
ORDER BY ref
