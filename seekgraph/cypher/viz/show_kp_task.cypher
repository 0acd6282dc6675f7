// A WebShaper KP task's picture: variables, constants and triples [X, r, S] with their layers,
// what the constants denote, and the executed answer set
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
  MATCH p = (t)-[:HAS_TRIPLE]->(:Triple)-[:OBJECT|SUBJECT]->(:Constant)-[:DENOTES]->()
  RETURN p
  UNION
  MATCH p = (t)-[:TARGET {role: 'answer'}]->()
  RETURN p
}
RETURN p
