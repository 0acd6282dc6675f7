// The biclique behind a union task (focused): up to eight member trees with their tables, the shared relations, and the task's pivot
MATCH (t:Task {task_id: $task_id})-[:BUILT_FROM]->(b:Biclique)
CALL (b) {
  MATCH (b)-[:HAS_MEMBER]->(tree:Tree)
  WITH tree ORDER BY tree.tree_id
  RETURN collect(tree)[..8] AS trees
}
CALL (t, b, trees) {
  UNWIND trees AS tree
  MATCH p = (t)-[:BUILT_FROM]->(b)-[:HAS_MEMBER]->(tree)-[:FROM_TABLE]->(:Table)
  RETURN p
  UNION
  MATCH p = (b)-[:SHARES]->(:Relation)
  RETURN p
  UNION
  UNWIND trees AS tree
  MATCH p = (b)-[:HAS_MEMBER]->(tree)-[:HAS_RELATION]->(r:Relation)
  WHERE (b)-[:SHARES]->(r)
  RETURN p
  UNION
  MATCH p = (t)-[:PIVOT]->()
  RETURN p
}
RETURN p
