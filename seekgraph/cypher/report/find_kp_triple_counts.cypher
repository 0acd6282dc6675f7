// Number of triples of every kept WebShaper KP task
MATCH (t:Task {kind: 'shaper'})
WHERE coalesce(t.status, 'kept') = 'kept'
RETURN t.task_id AS task_id, COUNT { (t)-[:HAS_TRIPLE]->() } AS n_triples
