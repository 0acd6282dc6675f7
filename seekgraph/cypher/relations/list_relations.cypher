// Relations with their headers and how each header was mapped, most used first.
MATCH (h:Header)-[m:MAPS_TO]->(r:Relation)
OPTIONAL MATCH (c:Column)-[:HAS_HEADER]->(h)
WITH r, h, m, count(c) AS columns
ORDER BY columns DESC
WITH r, collect({header: h.text, key: h.key, method: m.method, score: m.score, columns: columns}) AS headers,
     sum(columns) AS columns
RETURN r.name AS relation, columns, headers
ORDER BY columns DESC, relation
