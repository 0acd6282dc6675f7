UNWIND $rows AS row
MATCH (t:Task {task_id: row.task_id})
MERGE (r:Rollout {rollout_id: row.rollout_id})
SET r.task_id = row.task_id, r.policy = row.policy, r.model = row.model,
    r.index = row.index, r.termination = row.termination, r.prediction = row.prediction,
    r.rounds = row.rounds, r.tokens = row.tokens, r.messages_json = row.messages_json,
    r.detours_json = row.detours_json, r.error = row.error, r.seconds = row.seconds,
    r.max_rounds = row.max_rounds, r.shard = row.shard, r.pruned = false,
    r.status = 'done', r.finished_at = datetime()
MERGE (r)-[:FOR_TASK]->(t)
