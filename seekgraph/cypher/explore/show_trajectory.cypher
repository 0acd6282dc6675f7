// A trajectory's necessary DAG (focused): the first twelve necessary actions and up to twenty facts linking them, the rollout, its task and its pruned copy; list_rollout_steps lists every step
MATCH (start:Rollout {rollout_id: $rollout_id})
OPTIONAL MATCH (start)-[:PRUNED_FROM]->(original:Rollout)
WITH coalesce(original, start) AS r
OPTIONAL MATCH (g:StateGraph)-[:OF_ROLLOUT]->(r)
WITH r, g ORDER BY g.extractor DESC, g.run
WITH r, head(collect(g)) AS g
CALL (g) {
  OPTIONAL MATCH (g)-[:HAS_NODE]->(a:Action {necessary: true})
  WITH a ORDER BY a.index
  RETURN collect(a)[..12] AS actions
}
CALL (r, g, actions) {
  MATCH p = (r)-[:FOR_TASK]->(:Task)
  RETURN p
  UNION
  MATCH p = (:Rollout {pruned: true})-[:PRUNED_FROM]->(r)
  RETURN p
  UNION
  MATCH p = (g)-[:OF_ROLLOUT]->(r)
  RETURN p
  UNION
  UNWIND actions AS a
  MATCH p = (g)-[:HAS_NODE]->(a)
  RETURN p
  UNION
  UNWIND actions AS a
  MATCH p = (a)-[:PRODUCES]->(i:Information)-[:ENABLES]->(b:Action)
  WHERE b IN actions
  WITH p, a, i ORDER BY a.index, i.info_id
  LIMIT 20
  RETURN p
}
RETURN p
