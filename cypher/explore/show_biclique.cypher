// The biclique behind a union task: member trees x shared relations, their tables, and the task's pivot
MATCH (t:Task {task_id: $task_id})-[:BUILT_FROM]->(b:Biclique)
CALL (t, b) {
  MATCH p = (t)-[:BUILT_FROM]->(b)-[:HAS_MEMBER]->(:Tree)-[:FROM_TABLE]->(:Table)
  RETURN p
  UNION
  MATCH p = (b)-[:SHARES]->(:Relation)
  RETURN p
  UNION
  MATCH p = (b)-[:HAS_MEMBER]->(:Tree)-[:HAS_RELATION]->(r:Relation)
  WHERE (b)-[:SHARES]->(r)
  RETURN p
  UNION
  MATCH p = (t)-[:PIVOT]->()
  RETURN p
}
RETURN p
