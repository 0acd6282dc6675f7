// Per action of a trajectory's state graph: the facts it produced that no action relied on
// (counted when the graph was stored; such facts are not stored)
MATCH (start:Rollout {rollout_id: $rollout_id})
OPTIONAL MATCH (start)-[:PRUNED_FROM]->(original:Rollout)
WITH coalesce(original, start) AS r
MATCH (g:StateGraph)-[:OF_ROLLOUT]->(r)
WITH g ORDER BY g.extractor DESC, g.run
WITH head(collect(g)) AS g
MATCH (g)-[:HAS_NODE]->(a:Action)
WHERE a.unused_facts > 0
RETURN a.action_id AS action_id, a.unused_facts AS unused
