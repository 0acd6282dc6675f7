// Kept WebLeaper tasks with their question, gold records and the relations it asks for.
MATCH (t:Task {kind: 'leaper', status: 'kept'})
RETURN t.task_id AS task_id, t.variant AS variant, t.question AS question,
       t.answer_json AS answer_json, t.spec_json AS spec_json, t.tree_json AS tree_json
ORDER BY task_id
