MATCH (r:Rollout)
WHERE r.status = 'done' AND coalesce(r.pruned, false) = $pruned
  AND ($policy IS NULL OR r.policy = $policy)
  AND ($rescore OR r.isr IS NULL)
RETURN r.rollout_id AS rollout_id, r.task_id AS task_id, r.prediction AS prediction,
       r.termination AS termination, r.rounds AS rounds, r.tokens AS tokens,
       coalesce(r.max_rounds, 100) AS max_rounds
ORDER BY rollout_id
