MATCH (r:Rollout)
WHERE r.status = 'done' AND r.isr IS NOT NULL AND coalesce(r.pruned, false) = false
  AND ($policy IS NULL OR r.policy = $policy)
RETURN r.rollout_id AS rollout_id, r.isr AS isr, r.ise AS ise, r.termination AS termination,
       r.accuracy AS accuracy
ORDER BY rollout_id
