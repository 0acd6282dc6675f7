UNWIND $task_ids AS task_id
MATCH (t:Task {task_id: task_id})
RETURN task_id, t.answer_json AS answer_json, t.question AS question
