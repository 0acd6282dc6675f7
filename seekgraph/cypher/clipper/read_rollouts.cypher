// The answer targets of the given rollouts (their trajectories come from agent/store).
UNWIND $rollout_ids AS rid
MATCH (r:Rollout {rollout_id: rid})
OPTIONAL MATCH (r)-[:FOR_TASK]->(t:Task)
RETURN r.rollout_id AS rollout_id, r.task_id AS task_id, r.kept AS kept,
       COLLECT {
         MATCH (t)-[e:TARGET]->(x)
         RETURN {key: coalesce(x.entity_id, x.value_id),
                 names: [n IN [x.name, x.text] + coalesce(x.aliases, []) WHERE n IS NOT NULL],
                 kind: CASE WHEN x:Entity THEN 'entity' ELSE 'value' END, role: e.role}
       } AS targets
ORDER BY rollout_id
