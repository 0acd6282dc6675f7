// WebShaper KP task (focused): variables, constants and triples [X, r, S] with their expansion layers, and up to ten answers; show_task_answers lists every answer
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
  MATCH p = (t)-[:TARGET {role: 'answer'}]->(a)
  WITH p, a ORDER BY coalesce(a.name, a.text)
  LIMIT 10
  RETURN p
}
RETURN p
LIMIT 200
