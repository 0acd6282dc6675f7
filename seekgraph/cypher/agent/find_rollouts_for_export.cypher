MATCH (r:Rollout)-[:FOR_TASK]->(t:Task)
WHERE r.status = 'done' AND ($policy IS NULL OR r.policy = $policy)
  AND (NOT $kept_only OR r.kept = true)
RETURN r.rollout_id AS rollout_id, r.policy AS policy, t.question AS question, t.answer_json AS answer_json,
       r.prediction AS prediction,
       r.termination AS termination, r.isr AS isr, r.ise AS ise, r.f1 AS f1, r.fae AS fae
ORDER BY rollout_id
