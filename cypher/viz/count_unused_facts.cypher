// Per action of a trajectory's state graph: the facts it produced that no action relied on
MATCH (start:Rollout {rollout_id: $rollout_id})
OPTIONAL MATCH (start)-[:PRUNED_FROM]->(original:Rollout)
WITH coalesce(original, start) AS r
MATCH (g:StateGraph)-[:OF_ROLLOUT]->(r)
WITH g ORDER BY g.extractor DESC, g.run
WITH head(collect(g)) AS g
MATCH (g)-[:HAS_NODE]->(a:Action)-[:PRODUCES]->(i:Information)
WHERE NOT (i)-[:ENABLES]->(:Action)
RETURN a.action_id AS action_id, count(i) AS unused
