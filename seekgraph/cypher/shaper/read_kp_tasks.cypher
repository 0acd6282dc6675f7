// KP tasks with their triples, for export and expansion: every triple with its subject and
// ordered objects (a Variable has `name`, a Constant `text`, `ref`, `label`).
MATCH (t:Task {kind: 'shaper', variant: 'kp'})
WHERE ($task_ids IS NULL OR t.task_id IN $task_ids)
  AND ($source IS NULL OR t.source = $source)
  AND ($status IS NULL OR t.status = $status)
CALL (t) {
  MATCH (t)-[:HAS_TRIPLE]->(tr:Triple)-[:SUBJECT]->(s)
  CALL (tr) {
    MATCH (tr)-[o:OBJECT]->(obj)
    WITH o, obj ORDER BY o.position
    RETURN collect({variable: obj.name, text: obj.text, ref: obj.ref, label: obj.label}) AS objects
  }
  WITH tr, s, objects ORDER BY tr.index
  RETURN collect({relation: tr.relation, layer: tr.layer,
                  subject: {variable: s.name, text: s.text, ref: s.ref, label: s.label},
                  objects: objects}) AS triples
}
CALL (t) {
  OPTIONAL MATCH (t)-[:TARGET {role: 'answer'}]->(a)
  RETURN collect(coalesce(a.entity_id, a.value_id)) AS answer_refs
}
OPTIONAL MATCH (t)-[:BUILT_FROM]->(p:Task)
RETURN t {.*, created_at: null} AS task, triples, answer_refs, p.task_id AS parent_id
ORDER BY t.task_id
