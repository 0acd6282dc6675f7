// Rollouts with their steps (the wire-format pieces), for agent/store.read_trajectories.
UNWIND $rollout_ids AS rid
MATCH (r:Rollout {rollout_id: rid})
OPTIONAL MATCH (r)-[:PRUNED_FROM]->(o:Rollout)
RETURN r.rollout_id AS rollout_id, r.task_id AS task_id, r.question AS question,
       r.date AS date, coalesce(r.pruned, false) AS pruned, o.rollout_id AS original_id,
       properties(r) AS props,
       COLLECT {
         MATCH (r)-[:HAS_STEP]->(s:Step)
         RETURN s {.index, .source_index, .content, .response, .detour_kind, .rewritten}
         ORDER BY s.index
       } AS steps
ORDER BY rollout_id
