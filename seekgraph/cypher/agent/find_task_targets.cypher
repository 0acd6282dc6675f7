// The target set R of each task, one row per target: its roles, its names (name, the link
// texts it was seen under, the titles of its pages) and, for a target that is only an
// attribute, the task's entities it is an attribute of (`owners`: it counts as found only
// next to one of them).
UNWIND $task_ids AS task_id
MATCH (t:Task {task_id: task_id})-[r:TARGET]->(x)
WITH task_id, t, x, collect(DISTINCT r.role) AS roles
WITH task_id, t, x, roles, all(role IN roles WHERE role = 'attribute') AS attribute_only
RETURN task_id, coalesce(x.entity_id, x.value_id) AS target_id, roles,
       CASE WHEN 'answer' IN roles THEN 'answer' ELSE roles[0] END AS role,
       coalesce(x.name, x.text, x.normalized, '') AS name,
       coalesce(x.aliases, []) AS aliases,
       [(p:Page)-[:ABOUT]->(x) WHERE p.title IS NOT NULL | p.title] AS titles,
       CASE WHEN x:Entity THEN 'entity' ELSE 'value' END AS kind,
       CASE WHEN attribute_only
         THEN [(t)-[o:TARGET]->(e:Entity)-[:FACT]->(x) WHERE o.role <> 'attribute' | e.entity_id]
         ELSE [] END AS owners
ORDER BY task_id, target_id
