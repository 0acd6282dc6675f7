// Which dataset examples a run trained on (used = true) and which it dropped, with the reason.
UNWIND $rows AS row
MATCH (run:TrainingRun {run_id: $run_id})
MATCH (r:Rollout {rollout_id: row.rollout_id})
MERGE (run)-[e:TRAINING_EXAMPLE]->(r)
SET e.used = row.used, e.reason = row.reason, e.position = row.position, e.tokens = row.tokens
