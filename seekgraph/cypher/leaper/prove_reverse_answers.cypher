// Recompute a Reverse-Union task from its structure alone: the clues identify the bridge anchor
// (must be unique), the bridge has the pivot value and no other value under the pivot relation
// in the union's tables, and the answers are the other entities that anchor a row in any table
// of the union with the pivot value there.
UNWIND $tasks AS task
CALL (task) {
  UNWIND task.clues AS c
  CALL (c) {
    MATCH (x:Entity {entity_id: c.id}) WHERE c.kind = 'entity'
    RETURN x AS v
    UNION
    MATCH (x:Value {value_id: c.id}) WHERE c.kind = 'value'
    RETURN x AS v
  }
  MATCH (v)<-[:FACT {relation: c.relation}]-(e:Entity)
  WITH c, collect(DISTINCT e.entity_id) AS holders
  WITH collect(holders) AS sets
  RETURN reduce(acc = sets[0], s IN sets[1..] | [x IN acc WHERE x IN s]) AS bridge
}
CALL (task, bridge) {
  OPTIONAL MATCH (b:Entity)-[f:FACT {relation: task.pivot_relation}]->(p)
  WHERE b.entity_id IN bridge AND f.table_id IN task.table_ids
  WITH collect(DISTINCT coalesce(p.entity_id, p.value_id)) AS values
  RETURN values = [task.pivot_id] AS bridge_has_pivot
}
CALL (task, bridge) {
  UNWIND task.table_ids AS tid
  MATCH (:Table {table_id: tid})-[:HAS_ROW]->(:Row)-[:ANCHOR]->(a:Entity)
  WHERE NOT a.entity_id IN bridge
  MATCH (a)-[f:FACT {relation: task.pivot_relation, table_id: tid}]->(p)
  WHERE coalesce(p.entity_id, p.value_id) = task.pivot_id
  RETURN collect(DISTINCT a.entity_id) AS answers
}
RETURN task.task_id AS task_id, bridge, bridge_has_pivot, answers
