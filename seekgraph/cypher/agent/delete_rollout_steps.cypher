// The steps of rollouts about to be (re)written: a rewrite never leaves a stale step behind.
UNWIND $rollout_ids AS rid
MATCH (:Rollout {rollout_id: rid})-[:HAS_STEP]->(s:Step)
DETACH DELETE s
