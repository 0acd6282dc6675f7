// Union tasks that already have their Reverse-Union tasks (kept or rejected): a re-run skips them
// (stale ones, built on an earlier version of a table, are built again).
MATCH (r:Task {variant: 'reverse-union'})-[:BUILT_FROM]->(u:Task {variant: 'union'})
WHERE r.status <> 'stale'
RETURN DISTINCT u.task_id AS task_id
ORDER BY task_id
