// A rollout's steps as recorded, for the steps picture: every step in order (NEXT), the
// targets each revealed, and the task
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
