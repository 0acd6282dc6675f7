// GRPO trains on task prompts, not on stored trajectories.
UNWIND $rows AS row
MATCH (run:TrainingRun {run_id: $run_id})
MATCH (t:Task {task_id: row.task_id})
MERGE (run)-[:USED_TASK]->(t)
