UNWIND $rollout_ids AS rid
MATCH (r:Rollout {rollout_id: rid})
WHERE r.status = 'done'
RETURN r.rollout_id AS rollout_id
