// A pruned trajectory next to its original, with provenance to the graphs whose vote accepted it.
UNWIND $rows AS row
MATCH (o:Rollout {rollout_id: row.original_id})
MERGE (p:Rollout {rollout_id: row.rollout_id})
SET p += row.props, p.pruned = true, p.task_id = o.task_id, p.policy = o.policy,
    p.model = o.model, p.status = o.status, p.termination = o.termination,
    p.prediction = o.prediction, p.kept = o.kept, p.shard = o.shard, p.max_rounds = o.max_rounds,
    p.stale_reason = o.stale_reason
MERGE (p)-[:PRUNED_FROM]->(o)
WITH p, o, row
CALL (p, o) {
  MATCH (o)-[:FOR_TASK]->(t:Task)
  MERGE (p)-[:FOR_TASK]->(t)
}
WITH p, row
UNWIND row.graph_ids AS gid
MATCH (g:StateGraph {graph_id: gid})
MERGE (p)-[:PRUNED_BY]->(g)
