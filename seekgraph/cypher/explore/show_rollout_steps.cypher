// A trajectory as recorded (focused): its first twenty steps in order and up to eighteen targets they revealed; list_rollout_steps lists every step
MATCH (r:Rollout {rollout_id: $rollout_id})
CALL (r) {
  MATCH p = (r)-[:FOR_TASK]->(:Task)
  RETURN p
  UNION
  MATCH p = (r)-[:HAS_STEP]->(s:Step)
  WHERE s.index < 20
  RETURN p
  UNION
  MATCH p = (r)-[:HAS_STEP]->(s:Step)-[:NEXT]->(:Step)
  WHERE s.index < 19
  RETURN p
  UNION
  MATCH (r)-[:HAS_STEP]->(s:Step)-[:REVEALED]->(x)
  WHERE s.index < 20
  WITH x, min(s.index) AS first ORDER BY first, coalesce(x.name, x.text)
  LIMIT 18
  MATCH p = (r)-[:HAS_STEP]->(s:Step {index: first})-[:REVEALED]->(x)
  RETURN p
}
RETURN p
