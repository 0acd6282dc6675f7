// Status of each requested task id (for `rollout --task`): ids without a Task node are absent.
UNWIND $task_ids AS task_id
MATCH (t:Task {task_id: task_id})
RETURN t.task_id AS task_id, coalesce(t.status, 'kept') AS status, t.reason AS reason,
       t.kind AS kind, t.variant AS variant, t.split AS split
