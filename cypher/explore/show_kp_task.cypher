// WebShaper KP task: variables, constants and triples [X, r, S] with their expansion layers
MATCH (t:Task {task_id: $task_id})
CALL (t) {
  MATCH p = (t)-[:HAS_VARIABLE|HAS_TRIPLE|BUILT_FROM]->()
  RETURN p
  UNION
  MATCH p = (t)-[:HAS_TRIPLE]->(:Triple)-[:SUBJECT|OBJECT]->()
  RETURN p
  UNION
  MATCH p = (t)-[:HAS_VARIABLE]->(:Variable)-[:EXPANDS]->(:Constant)
  RETURN p
  UNION
  MATCH p = (t)-[:HAS_TRIPLE]->(:Triple)-[:OBJECT]->(:Constant)-[:DENOTES]->()
  RETURN p
}
RETURN p
LIMIT 2000
