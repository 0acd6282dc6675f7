UNWIND $rollout_ids AS rid
MATCH (r:Rollout {rollout_id: rid})
RETURN r.rollout_id AS rollout_id, r.messages_json AS messages_json
