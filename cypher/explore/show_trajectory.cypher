// A trajectory's state graph: actions and information, the necessary DAG, the pruned rollout
MATCH (start:Rollout {rollout_id: $rollout_id})
OPTIONAL MATCH (start)-[:PRUNED_FROM]->(original:Rollout)
WITH coalesce(original, start) AS r
OPTIONAL MATCH (g:StateGraph)-[:OF_ROLLOUT]->(r)
WITH r, g ORDER BY g.extractor DESC, g.run
WITH r, head(collect(g)) AS g
CALL (r, g) {
  MATCH p = (r)-[:FOR_TASK]->(:Task)
  RETURN p
  UNION
  MATCH p = (:Rollout {pruned: true})-[:PRUNED_FROM]->(r)
  RETURN p
  UNION
  MATCH p = (g)-[:OF_ROLLOUT]->(r)
  RETURN p
  UNION
  MATCH p = (g)-[:HAS_NODE]->(:Action)-[:PRODUCES]->(:Information)
  RETURN p
  UNION
  MATCH p = (g)-[:HAS_NODE]->(:Information)-[:ENABLES]->(:Action)
  RETURN p
  UNION
  MATCH p = (g)-[:HAS_NODE]->()
  RETURN p
}
RETURN p
LIMIT 2000
