// The dataset examples the run behind a checkpoint (or run id) did NOT train on, and why.
MATCH (run:TrainingRun)
WHERE run.checkpoint = $checkpoint OR run.run_id = $checkpoint
   OR $checkpoint IN coalesce(run.checkpoints, [])
MATCH (run)-[e:TRAINING_EXAMPLE {used: false}]->(r:Rollout)
RETURN run.run_id AS run_id, r.rollout_id AS rollout_id, e.reason AS reason,
       e.tokens AS tokens, e.position AS position
ORDER BY position
