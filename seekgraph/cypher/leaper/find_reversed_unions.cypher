// Union tasks that already have their Reverse-Union tasks (kept or rejected): a re-run skips them.
MATCH (:Task {variant: 'reverse-union'})-[:BUILT_FROM]->(u:Task {variant: 'union'})
RETURN DISTINCT u.task_id AS task_id
ORDER BY task_id
