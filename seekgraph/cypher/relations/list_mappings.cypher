// Every header's stored mapping (a header may carry a human and an older automatic one).
MATCH (h:Header)-[m:MAPS_TO]->(r:Relation)
RETURN h.key AS key, r.name AS relation, m.method AS method, m.score AS score
