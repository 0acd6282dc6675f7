// Candidate trajectories of the prune stage: unpruned originals with messages, kept by the
// filter unless $include_unfiltered; prune_status tells which are already finished (resume).
// A stale rollout (its task was built on an earlier version of a table) waits for its re-run.
MATCH (r:Rollout)
WHERE coalesce(r.pruned, false) = false AND r.status = 'done'
  AND EXISTS { (r)-[:HAS_STEP]->(:Step) }
  AND ($include_unfiltered OR r.kept = true)
  AND ($rollout_ids IS NULL OR r.rollout_id IN $rollout_ids)
RETURN r.rollout_id AS rollout_id, r.prune_status AS prune_status
ORDER BY rollout_id
