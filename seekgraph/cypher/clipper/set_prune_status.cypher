// Marks an original as finished by the prune stage (pruned, minimal or unpruned with a reason).
UNWIND $rows AS row
MATCH (r:Rollout {rollout_id: row.rollout_id})
SET r.prune_status = row.status, r.prune_detail = row.detail
