// What an id names: a task (and its kind) or a rollout; used to pick the picture or the query
OPTIONAL MATCH (t:Task {task_id: $subject_id})
OPTIONAL MATCH (r:Rollout {rollout_id: $subject_id})
RETURN t.kind AS task_kind, t.variant AS variant, r IS NOT NULL AS is_rollout,
       EXISTS { (:StateGraph)-[:OF_ROLLOUT]->(r) } AS has_state_graph
