// Every kept task: kind, variant, |R|, its gold records (JSON) and its question
MATCH (t:Task)
WHERE coalesce(t.status, 'kept') = 'kept'
RETURN t.task_id AS task_id, t.kind AS kind, t.variant AS variant,
       coalesce(t.n_targets, COUNT { (t)-[:TARGET]->() }) AS n_targets,
       t.answer_json AS answer_json, t.question AS question
ORDER BY task_id
