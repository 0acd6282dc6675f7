// Every task with its kind, variant, status, number of targets and question
MATCH (t:Task)
RETURN t.task_id AS task_id, t.kind AS kind, t.variant AS variant, t.status AS status,
       t.n_targets AS n_targets, t.question AS question
ORDER BY t.kind, t.variant, t.task_id
LIMIT 500
