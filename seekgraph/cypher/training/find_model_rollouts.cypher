// The finished unpruned rollouts of one policy model (e.g. a teacher under an experiment's
// settings), for pruning just those.
MATCH (r:Rollout {model: $model})
WHERE coalesce(r.pruned, false) = false AND r.status = 'done'
RETURN r.rollout_id AS rollout_id
ORDER BY rollout_id
