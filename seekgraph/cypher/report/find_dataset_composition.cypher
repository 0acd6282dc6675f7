// The latest dataset's examples by task variant, pruned or original trajectory
MATCH (d:Dataset)
WITH d ORDER BY d.built_at DESC LIMIT 1
MATCH (d)-[:INCLUDES]->(r:Rollout)
OPTIONAL MATCH (r)-[:FOR_TASK]->(t:Task)
RETURN d.name AS dataset, d.mix AS mix, coalesce(t.variant, '?') AS variant,
       coalesce(r.pruned, false) AS pruned, count(r) AS n
ORDER BY variant, pruned
