// Ids of the tasks that already exist among $task_ids (a re-run skips them; a stale task, built
// on an earlier version of a table, is built again).
UNWIND $task_ids AS tid
MATCH (t:Task {task_id: tid})
WHERE t.status <> 'stale'
RETURN t.task_id AS task_id
