// Per rollout: ISR, ISE, filter verdict, rounds and tokens, and the original of a pruned rollout
MATCH (r:Rollout)
OPTIONAL MATCH (r)-[:PRUNED_FROM]->(o:Rollout)
RETURN r.rollout_id AS rollout_id, r.isr AS isr, r.ise AS ise, r.kept AS kept,
       r.rounds AS rounds, r.tokens AS tokens, coalesce(r.pruned, false) AS pruned,
       o.rollout_id AS original_id, o.rounds AS original_rounds, o.tokens AS original_tokens
