// The target set R of tasks, with roles, and their provenance (trees, bicliques, tables).
UNWIND $task_ids AS tid
MATCH (t:Task {task_id: tid})
CALL (t) {
  OPTIONAL MATCH (t)-[r:TARGET]->(n)
  WITH r, n ORDER BY r.role, coalesce(n.entity_id, n.value_id)
  RETURN collect(CASE WHEN n IS NULL THEN null ELSE {role: r.role,
    id: coalesce(n.entity_id, n.value_id), name: coalesce(n.name, n.text, n.entity_id)} END) AS targets
}
CALL (t) {
  OPTIONAL MATCH (t)-[:BUILT_FROM]->(x)
  OPTIONAL MATCH (x)-[:HAS_MEMBER|FROM_TABLE]->(y)
  OPTIONAL MATCH (y)-[:FROM_TABLE]->(z:Table)
  RETURN collect(DISTINCT coalesce(x.tree_id, x.biclique_id, x.task_id)) AS built_from,
         collect(DISTINCT coalesce(z.table_id, y.table_id)) AS tables
}
RETURN t.task_id AS task_id, targets, built_from, [x IN tables WHERE x IS NOT NULL] AS tables
