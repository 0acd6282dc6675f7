// A finished rollout (its steps are written by agent/merge_steps in the same transaction).
UNWIND $rows AS row
MATCH (t:Task {task_id: row.task_id})
MERGE (r:Rollout {rollout_id: row.rollout_id})
SET r.task_id = row.task_id, r.policy = row.policy, r.model = row.model,
    r.index = row.index, r.termination = row.termination, r.prediction = row.prediction,
    r.question = row.question, r.date = row.date, r.rounds = row.rounds,
    r.tool_calls = row.tool_calls, r.valid_turns = row.valid_turns, r.tokens = row.tokens,
    r.prompt_tokens = row.prompt_tokens, r.completion_tokens = row.completion_tokens,
    r.error = row.error, r.seconds = row.seconds, r.max_rounds = row.max_rounds,
    r.shard = row.shard, r.pruned = false, r.status = 'done', r.finished_at = datetime(),
    r.stale_reason = null
MERGE (r)-[:FOR_TASK]->(t)
