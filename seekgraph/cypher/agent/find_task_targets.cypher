UNWIND $task_ids AS task_id
MATCH (t:Task {task_id: task_id})-[r:TARGET]->(x)
RETURN task_id, coalesce(x.entity_id, x.value_id) AS target_id, r.role AS role,
       coalesce(x.name, x.text, x.normalized, '') AS name, coalesce(x.aliases, []) AS aliases,
       CASE WHEN x:Entity THEN 'entity' ELSE 'value' END AS kind
ORDER BY task_id, target_id
