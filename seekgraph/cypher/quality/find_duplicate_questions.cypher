// Kept tasks asking a question another kept task (with a smaller id) already asks.
MATCH (t:Task {status: 'kept'})
WITH t.question AS question, t.task_id AS task_id ORDER BY task_id
WITH question, collect(task_id) AS ids
WHERE question IS NOT NULL AND question <> '' AND size(ids) > 1
UNWIND ids[1..] AS task_id
RETURN task_id, ids[0] AS detail
ORDER BY task_id
