MATCH (t:Task)
WHERE coalesce(t.status, 'kept') = 'kept'
  AND ($kind IS NULL OR t.kind = $kind)
  AND ($variant IS NULL OR t.variant = $variant)
  AND ($split IS NULL OR t.split = $split)
  AND ($task_ids IS NULL OR t.task_id IN $task_ids)
RETURN t.task_id AS task_id, t.kind AS kind, t.variant AS variant,
       t.question AS question, t.answer_json AS answer_json
ORDER BY t.task_id
LIMIT $limit
