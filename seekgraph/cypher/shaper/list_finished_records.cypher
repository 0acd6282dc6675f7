// What a shaper stage already did (for resuming): the origins of its tasks, the parents that
// already have an expansion, and the record ids it rejected. A stale task (built on an earlier
// version of a table) is no finished record: its seed or expansion is made again.
CALL () {
  MATCH (t:Task {kind: 'shaper'}) WHERE t.origin STARTS WITH $prefix AND t.status <> 'stale'
  RETURN t.origin AS record_id
  UNION
  MATCH (c:Task {kind: 'shaper'})-[:BUILT_FROM]->(p:Task {kind: 'shaper'})
  WHERE c.status <> 'stale'
  RETURN p.task_id AS record_id
  UNION
  MATCH (r:Rejection {stage: $stage})
  RETURN r.record_id AS record_id
}
RETURN record_id
