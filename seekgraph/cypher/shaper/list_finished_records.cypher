// What a shaper stage already did (for resuming): the origins of its tasks, the parents that
// already have an expansion, and the record ids it rejected.
CALL () {
  MATCH (t:Task {kind: 'shaper'}) WHERE t.origin STARTS WITH $prefix
  RETURN t.origin AS record_id
  UNION
  MATCH (:Task {kind: 'shaper'})-[:BUILT_FROM]->(p:Task {kind: 'shaper'})
  RETURN p.task_id AS record_id
  UNION
  MATCH (r:Rejection {stage: $stage})
  RETURN r.record_id AS record_id
}
RETURN record_id
