// A trajectory as recorded: its steps in order, the pages they saw and the targets they revealed
MATCH (r:Rollout {rollout_id: $rollout_id})
CALL (r) {
  MATCH p = (r)-[:FOR_TASK]->(:Task)
  RETURN p
  UNION
  MATCH p = (r)-[:HAS_STEP]->(:Step)
  RETURN p
  UNION
  MATCH p = (r)-[:HAS_STEP]->(:Step)-[:NEXT|REVEALED]->()
  RETURN p
}
RETURN p
LIMIT 2000
