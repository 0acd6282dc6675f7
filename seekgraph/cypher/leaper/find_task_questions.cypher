// Kept tasks (other than $task_ids) that already ask one of $questions.
MATCH (t:Task {status: 'kept'})
WHERE t.question IN $questions AND NOT t.task_id IN $task_ids
RETURN DISTINCT t.question AS question
ORDER BY question
