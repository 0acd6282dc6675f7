// One page of tasks for `browse --list` (kind, variant, status, targets), and how many there are
MATCH (t:Task)
WITH t ORDER BY t.kind, t.variant, t.task_id
WITH collect(t) AS tasks
UNWIND tasks[$skip..$skip + $limit] AS t
RETURN size(tasks) AS total, t.task_id AS task_id, t.kind AS kind, t.variant AS variant,
       t.status AS status, t.n_targets AS n_targets
