// |R| (number of targets) of every kept WebLeaper task, by variant
MATCH (t:Task {kind: 'leaper'})
WHERE coalesce(t.status, 'kept') = 'kept'
RETURN t.variant AS variant, coalesce(t.n_targets, COUNT { (t)-[:TARGET]->() }) AS n_targets
