// One example per task variant for the report's tables: the first kept task (by id) that has
// a rollout, else the first kept task, with its kept original rollout and whether it was pruned
MATCH (t:Task)
WHERE coalesce(t.status, 'kept') = 'kept'
OPTIONAL MATCH (r:Rollout)-[:FOR_TASK]->(t)
WHERE NOT coalesce(r.pruned, false)
WITH t, r ORDER BY r.kept DESC, r.rollout_id
WITH t, head(collect(r)) AS r
WITH t.variant AS variant, t, r ORDER BY r IS NULL, t.task_id
WITH variant, head(collect({task: t, rollout: r})) AS first
WITH variant, first.task AS t, first.rollout AS r
RETURN variant, t.task_id AS task_id, t.kind AS kind, t.question AS question,
       t.answer_json AS answer_json, coalesce(t.n_targets, 0) AS n_targets,
       r.rollout_id AS rollout_id, r.rounds AS rounds, r.tokens AS tokens,
       EXISTS { (:StateGraph)-[:OF_ROLLOUT]->(r) } AS has_state_graph,
       [(p:Rollout {pruned: true})-[:PRUNED_FROM]->(r) | p.rollout_id][0] AS pruned_id
ORDER BY variant
