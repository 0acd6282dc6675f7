// Per task variant: kept tasks, their rollouts, the rollouts the filter kept, the pruned
// copies, and the examples of the latest dataset (the report's funnel)
OPTIONAL MATCH (d:Dataset)
WITH d ORDER BY d.built_at DESC
WITH head(collect(d)) AS d
MATCH (t:Task)
WHERE coalesce(t.status, 'kept') = 'kept'
WITH d, t,
     COUNT { (r:Rollout)-[:FOR_TASK]->(t) WHERE NOT coalesce(r.pruned, false) } AS rollouts,
     COUNT { (r:Rollout)-[:FOR_TASK]->(t) WHERE NOT coalesce(r.pruned, false) AND r.kept }
       AS kept,
     COUNT { (r:Rollout {pruned: true})-[:FOR_TASK]->(t) } AS pruned,
     COUNT { (d)-[:INCLUDES]->(:Rollout)-[:FOR_TASK]->(t) } AS examples
RETURN t.variant AS variant, count(t) AS tasks, sum(rollouts) AS rollouts, sum(kept) AS kept,
       sum(pruned) AS pruned, sum(examples) AS examples
ORDER BY variant
