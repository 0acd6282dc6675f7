// Automatic header -> relation mappings; a header with a human mapping is left alone.
UNWIND $rows AS row
MATCH (h:Header {key: row.key})
WHERE NOT EXISTS { (h)-[:MAPS_TO {method: 'human'}]->() }
CALL (h, row) {
  MATCH (h)-[old:MAPS_TO]->(other:Relation)
  WHERE other.name <> row.relation
  DELETE old
}
MERGE (r:Relation {name: row.relation})
MERGE (h)-[m:MAPS_TO]->(r)
SET m.method = row.method, m.score = row.score, m.reviewed = false
