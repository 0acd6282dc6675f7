// A KP task graph (docs/schema.md §3): the Task, its variables, constants (DENOTES the node a
// constant means), triples (SUBJECT, OBJECT in order; several OBJECTs = an R-union), the answer
// set (TARGET {role: 'answer'}), provenance (BUILT_FROM) and the constant an expansion replaced.
UNWIND $rows AS row
MERGE (t:Task {task_id: row.task_id})
SET t += row.props, t.created_at = coalesce(t.created_at, datetime()), t.stale_reason = null
WITH t, row
CALL (t, row) {
  UNWIND row.variables AS v
  MERGE (n:Variable {variable_id: v.variable_id})
  SET n.name = v.name, n.is_target = v.is_target, n.layer = v.layer
  MERGE (t)-[:HAS_VARIABLE]->(n)
}
CALL (t, row) {
  UNWIND row.constants AS c
  MERGE (n:Constant {constant_id: c.constant_id})
  SET n.text = c.text, n.kind = c.kind, n.ref = c.ref, n.label = c.label
  MERGE (t)-[:HAS_CONSTANT]->(n)
  WITH n, c WHERE c.ref IS NOT NULL
  CALL (n, c) {
    MATCH (e:Entity {entity_id: c.ref}) WHERE c.label = 'Entity'
    MERGE (n)-[:DENOTES]->(e)
  }
  CALL (n, c) {
    MATCH (e:Value {value_id: c.ref}) WHERE c.label = 'Value'
    MERGE (n)-[:DENOTES]->(e)
  }
}
CALL (t, row) {
  UNWIND row.triples AS tr
  MERGE (n:Triple {triple_id: tr.triple_id})
  SET n.relation = tr.relation, n.index = tr.index, n.layer = tr.layer,
      n.union_group = tr.union_group
  MERGE (t)-[:HAS_TRIPLE]->(n)
  WITH n, tr
  CALL (n, tr) {
    MATCH (s:Variable {variable_id: tr.subject_id})
    MERGE (n)-[:SUBJECT]->(s)
  }
  CALL (n, tr) {
    MATCH (s:Constant {constant_id: tr.subject_id})
    MERGE (n)-[:SUBJECT]->(s)
  }
  CALL (n, tr) {
    UNWIND range(0, size(tr.object_ids) - 1) AS i
    CALL (n, tr, i) {
      MATCH (o:Variable {variable_id: tr.object_ids[i]})
      MERGE (n)-[r:OBJECT]->(o) SET r.position = i
    }
    CALL (n, tr, i) {
      MATCH (o:Constant {constant_id: tr.object_ids[i]})
      MERGE (n)-[r:OBJECT]->(o) SET r.position = i
    }
  }
}
CALL (t, row) {
  UNWIND row.answer_refs AS ref
  CALL (t, ref) {
    MATCH (e:Entity {entity_id: ref})
    MERGE (t)-[:TARGET {role: 'answer'}]->(e)
  }
  CALL (t, ref) {
    MATCH (e:Value {value_id: ref})
    MERGE (t)-[:TARGET {role: 'answer'}]->(e)
  }
}
CALL (t, row) {
  MATCH (p:Task {task_id: row.parent_id})
  MERGE (t)-[:BUILT_FROM]->(p)
}
CALL (row) {
  MATCH (v:Variable {variable_id: row.expands.variable_id})
  MATCH (c:Constant {constant_id: row.expands.constant_id})
  MERGE (v)-[:EXPANDS]->(c)
}
