// What became of one policy model's rollouts: answered, kept by the ISR/ISE filter, pruned.
MATCH (r:Rollout {model: $model})
WHERE coalesce(r.pruned, false) = false
OPTIONAL MATCH (p:Rollout)-[:PRUNED_FROM]->(r)
RETURN count(r) AS rollouts_total, count(CASE WHEN r.termination = 'answer' THEN 1 END) AS answered,
       count(CASE WHEN r.kept THEN 1 END) AS kept, count(p) AS pruned_versions,
       avg(r.rounds) AS mean_rounds, avg(p.rounds) AS mean_pruned_rounds,
       avg(r.tokens) AS mean_tokens, avg(p.tokens) AS mean_pruned_tokens
