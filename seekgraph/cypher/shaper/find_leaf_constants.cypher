// Leaf constants of a task graph: a constant that denotes a node, is the only object of its
// triple (not part of an R-union), occurs in no other triple and is never a subject.
// Only an entity with a page of its own is a leaf to expand: hops join on things, never on
// literals (a year, a score) or unlinked mentions.
// Deepest layer first: layer-wise expansion grows the task from its newest leaves.
MATCH (t:Task {task_id: $task_id})-[:HAS_TRIPLE]->(tr:Triple)-[:OBJECT]->(c:Constant)-[:DENOTES]->(n)
WHERE n:Entity AND n.entity_id STARTS WITH '/wiki/'
  AND COUNT { (tr)-[:OBJECT]->() } = 1
  AND COUNT { (t)-[:HAS_TRIPLE]->(:Triple)-[:OBJECT]->(c) } = 1
  AND NOT EXISTS { (t)-[:HAS_TRIPLE]->(:Triple)-[:SUBJECT]->(c) }
MATCH (tr)-[:SUBJECT]->(s:Variable)
RETURN c.text AS text, c.ref AS ref, c.label AS label, tr.index AS triple_index,
       tr.layer AS layer, s.name AS subject
ORDER BY layer DESC, triple_index
