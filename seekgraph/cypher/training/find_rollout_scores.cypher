UNWIND $rollout_ids AS rid
MATCH (r:Rollout {rollout_id: rid})
RETURN r.rollout_id AS rollout_id, r.task_id AS task_id, r.termination AS termination,
       r.accuracy AS accuracy, r.f1 AS f1, r.rounds AS rounds, r.isr AS isr, r.ise AS ise,
       r.fae AS fae, r.tokens AS tokens,
       r.valid_turns AS valid_turns
