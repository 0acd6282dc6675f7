// Canonical relation names the graph knows (for mapping published relation phrases).
MATCH (r:Relation)
RETURN r.name AS name
ORDER BY name
