// "Which trajectories trained this checkpoint?" — by final or intermediate checkpoint path,
// or by run id: the run, its dataset(s) and the rollouts the run actually used
// (TRAINING_EXAMPLE.used; examples dropped as too long are left out). A run recorded before
// TRAINING_EXAMPLE edges existed answers with every rollout of its dataset.
MATCH (run:TrainingRun)
WHERE run.checkpoint = $checkpoint OR run.run_id = $checkpoint
   OR $checkpoint IN coalesce(run.checkpoints, [])
MATCH (run)-[:TRAINED_ON]->(d:Dataset)-[:INCLUDES]->(r:Rollout)-[:FOR_TASK]->(t:Task)
OPTIONAL MATCH (run)-[e:TRAINING_EXAMPLE]->(r)
WITH run, d, r, t, e, EXISTS { (run)-[:TRAINING_EXAMPLE]->() } AS recorded
WHERE NOT recorded OR e.used
OPTIONAL MATCH (r)-[:PRUNED_FROM]->(o:Rollout)
RETURN run.run_id AS run_id, d.dataset_id AS dataset_id, r.rollout_id AS rollout_id,
       t.task_id AS task_id, t.variant AS variant, coalesce(r.pruned, false) AS pruned,
       o.rollout_id AS original_id
ORDER BY rollout_id
