// Per rollout: its policy, ISR, ISE, F1, filter verdict, rounds and tokens, and for a pruned rollout its
// original with the rounds and tokens the prune stage measured before pruning (stale rollouts,
// whose tasks were built on an earlier version of a table, are left out until they run again)
MATCH (r:Rollout)
WHERE coalesce(r.status, 'done') = 'done'
OPTIONAL MATCH (r)-[:PRUNED_FROM]->(o:Rollout)
RETURN r.rollout_id AS rollout_id, r.policy AS policy, r.isr AS isr, r.ise AS ise, r.f1 AS f1, r.kept AS kept,
       r.rounds AS rounds, r.tokens AS tokens, coalesce(r.pruned, false) AS pruned,
       o.rollout_id AS original_id,
       coalesce(r.rounds_before, o.rounds) AS original_rounds,
       coalesce(r.tokens_before, o.tokens) AS original_tokens
