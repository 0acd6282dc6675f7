// WebLeaper tasks with their provenance, target set R, and (Reverse-Union) pivot and clues.
UNWIND $rows AS row
MERGE (t:Task {task_id: row.task_id})
ON CREATE SET t.created_at = datetime()
SET t.kind = 'leaper', t.variant = row.variant, t.question = row.question,
    t.question_source = row.question_source,
    t.answer_json = row.answer_json, t.status = row.status, t.reason = row.reason,
    t.n_targets = row.n_targets, t.split = row.split, t.tree_json = row.tree_json,
    t.spec_json = row.spec_json, t.stale_reason = null
WITH t, row
CALL (t) {
  MATCH (t)-[old:BUILT_FROM|TARGET|CLUE|PIVOT]->()
  DELETE old
}
CALL (t, row) {
  UNWIND row.trees AS tid
  MATCH (x:Tree {tree_id: tid})
  MERGE (t)-[:BUILT_FROM]->(x)
}
CALL (t, row) {
  UNWIND row.bicliques AS bid
  MATCH (x:Biclique {biclique_id: bid})
  MERGE (t)-[:BUILT_FROM]->(x)
}
CALL (t, row) {
  UNWIND row.tasks AS tid
  MATCH (x:Task {task_id: tid})
  MERGE (t)-[:BUILT_FROM]->(x)
}
CALL (t, row) {
  UNWIND row.targets AS x
  WITH t, x WHERE x.kind = 'entity'
  MATCH (n:Entity {entity_id: x.id})
  MERGE (t)-[:TARGET {role: x.role}]->(n)
}
CALL (t, row) {
  UNWIND row.targets AS x
  WITH t, x WHERE x.kind = 'value'
  MATCH (n:Value {value_id: x.id})
  MERGE (t)-[:TARGET {role: x.role}]->(n)
}
CALL (t, row) {
  UNWIND row.clues AS x
  OPTIONAL MATCH (e:Entity {entity_id: x.id})
  OPTIONAL MATCH (v:Value {value_id: x.id})
  WITH t, coalesce(e, v) AS n WHERE n IS NOT NULL
  MERGE (t)-[:CLUE]->(n)
}
CALL (t, row) {
  UNWIND row.pivots AS x
  OPTIONAL MATCH (e:Entity {entity_id: x.id})
  OPTIONAL MATCH (v:Value {value_id: x.id})
  WITH t, coalesce(e, v) AS n WHERE n IS NOT NULL
  MERGE (t)-[:PIVOT]->(n)
}
