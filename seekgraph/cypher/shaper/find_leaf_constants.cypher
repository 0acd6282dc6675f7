// Leaf constants of a task graph: a constant that denotes a node, is the only object of its
// triple (not part of an R-union), occurs in no other triple and is never a subject.
// Deepest layer first: layer-wise expansion grows the task from its newest leaves.
MATCH (t:Task {task_id: $task_id})-[:HAS_TRIPLE]->(tr:Triple)-[:OBJECT]->(c:Constant)-[:DENOTES]->(n)
WHERE COUNT { (tr)-[:OBJECT]->() } = 1
  AND COUNT { (t)-[:HAS_TRIPLE]->(:Triple)-[:OBJECT]->(c) } = 1
  AND NOT EXISTS { (t)-[:HAS_TRIPLE]->(:Triple)-[:SUBJECT]->(c) }
MATCH (tr)-[:SUBJECT]->(s:Variable)
RETURN c.text AS text, c.ref AS ref, c.label AS label, tr.index AS triple_index,
       tr.layer AS layer, s.name AS subject
ORDER BY layer DESC, triple_index
