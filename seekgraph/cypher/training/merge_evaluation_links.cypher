UNWIND $rows AS row
MATCH (e:Evaluation {eval_id: $eval_id})
MATCH (r:Rollout {rollout_id: row.rollout_id})-[:FOR_TASK]->(t:Task)
MERGE (e)-[:ON_TASK]->(t)
MERGE (e)-[:USED_ROLLOUT]->(r)
