// Metadata of finished rollouts for dataset selection (messages fetched later, for the chosen).
// Keyset pagination on rollout_id; a pruned rollout falls back on its original's scores.
MATCH (r:Rollout)-[:FOR_TASK]->(t:Task)
WHERE r.rollout_id > $after
  AND coalesce(r.status, 'done') = 'done'
  AND EXISTS { (r)-[:HAS_STEP]->(:Step) }
OPTIONAL MATCH (r)-[:PRUNED_FROM]->(o:Rollout)
RETURN r.rollout_id AS rollout_id, t.task_id AS task_id, t.kind AS kind, t.variant AS variant,
       coalesce(t.split, 'train') AS split, r.policy AS policy, r.model AS model,
       coalesce(r.pruned, false) AS pruned, o.rollout_id AS original_id,
       coalesce(r.termination, o.termination) AS termination,
       coalesce(r.kept, o.kept, false) AS kept,
       coalesce(r.accuracy, o.accuracy, 0.0) AS accuracy, coalesce(r.f1, o.f1, 0.0) AS f1,
       coalesce(r.isr, o.isr, 0.0) AS isr, coalesce(r.ise, o.ise, 0.0) AS ise,
       coalesce(r.rounds, o.rounds, 0) AS rounds,
       CASE WHEN coalesce(r.pruned, false) THEN coalesce(r.rewrite_status, 'not_rewritten')
            ELSE 'original' END AS thoughts
ORDER BY r.rollout_id
LIMIT $page
