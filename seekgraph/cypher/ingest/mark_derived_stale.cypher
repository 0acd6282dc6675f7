// Everything built on tables whose rows change (a new version, other cleaning settings) or that
// leave their source, marked stale with the reason (docs/schema.md, "Versions and stale work"):
// the table's tree (its anchors and relations go: they described the old rows), the bicliques
// and topic groups holding that tree, every task built on them or on such a task (a
// Reverse-Union on its Union) or whose KP triples read the table (`relation@table_id`), and
// the rollouts of those tasks, pruned copies included (their scores go with them). The stages
// that made them rebuild what is stale; a retired table's work stays stale.
UNWIND $rows AS row
MATCH (tab:Table {table_id: row.table_id})
CALL (tab, row) {
  MATCH (tree:Tree)-[:FROM_TABLE]->(tab)
  SET tree.stale_reason = row.reason
  WITH tree, row
  CALL (tree) {
    MATCH (tree)-[old:HAS_ANCHOR|HAS_RELATION]->()
    DELETE old
  }
  CALL (tree, row) {
    MATCH (b:Biclique)-[:HAS_MEMBER]->(tree)
    SET b.stale_reason = row.reason
  }
  CALL (tree) {
    MATCH (g:TopicGroup)-[:HAS_MEMBER]->(tree)
    SET g.status = 'stale'
  }
}
CALL (tab, row) {
  CALL (tab) {
    MATCH (task:Task)-[:BUILT_FROM|HAS_MEMBER*1..4]->(:Tree)-[:FROM_TABLE]->(tab)
    RETURN task
    UNION
    MATCH (task:Task {kind: 'shaper'})-[:HAS_TRIPLE]->(tr:Triple)
    WHERE tr.relation ENDS WITH '@' + tab.table_id
    RETURN task
  }
  WITH DISTINCT task, row
  SET task.status = 'stale', task.stale_reason = row.reason
  WITH task, row
  CALL (task, row) {
    MATCH (r:Rollout)-[:FOR_TASK]->(task)
    SET r.status = 'stale', r.stale_reason = row.reason,
        r.isr = null, r.ise = null, r.precision = null, r.recall = null, r.f1 = null,
        r.accuracy = null, r.fae = null, r.kept = null, r.reject_reason = null,
        r.n_targets = null, r.n_found = null, r.n_found_visit = null, r.actions = null,
        r.prune_status = null
  }
}
