// Kept WebLeaper tasks of some variants (null = all) with their spec, for later stages and export.
MATCH (t:Task {kind: 'leaper'})
WHERE t.status = 'kept' AND ($variants IS NULL OR t.variant IN $variants)
RETURN t.task_id AS task_id, t.variant AS variant, t.question AS question,
       t.answer_json AS answer_json, t.tree_json AS tree_json, t.spec_json AS spec_json,
       t.split AS split, t.n_targets AS n_targets, t.question_source AS question_source
ORDER BY task_id
