// Ids of the tasks that already exist among $task_ids (a re-run skips them).
UNWIND $task_ids AS tid
MATCH (t:Task {task_id: tid})
RETURN t.task_id AS task_id
