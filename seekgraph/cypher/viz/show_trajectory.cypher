// A trajectory's picture: the state graph's actions, the facts that some action relied on
// (PRODUCES then ENABLES), the rollout, its task and its pruned copy. Facts no action used are
// not stored (a rollout reads thousands); viz/count_unused_facts reads their count.
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
  MATCH p = (g)-[:HAS_NODE]->(:Action)
  RETURN p
  UNION
  MATCH p = (g)-[:HAS_NODE]->(:Action)-[:PRODUCES]->(:Information)-[:ENABLES]->(:Action)
  RETURN p
}
RETURN p
