UNWIND $rows AS row
MATCH (r:Rollout {rollout_id: row.rollout_id})
SET r.kept = row.kept, r.reject_reason = row.reject_reason
