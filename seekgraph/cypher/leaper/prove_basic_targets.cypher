// Recompute Basic targets from the source rows: the table's row anchors, and the values their
// facts from that table give for the task's relations.
UNWIND $tasks AS task
CALL (task) {
  MATCH (:Table {table_id: task.table_id})-[:HAS_ROW]->(:Row)-[:ANCHOR]->(a:Entity)
  OPTIONAL MATCH (a)-[f:FACT]->(v)
  WHERE f.table_id = task.table_id AND f.relation IN task.relations
  RETURN collect(DISTINCT a.entity_id) AS answers,
         collect(DISTINCT coalesce(v.entity_id, v.value_id)) AS attributes
}
RETURN task.task_id AS task_id, answers, attributes
