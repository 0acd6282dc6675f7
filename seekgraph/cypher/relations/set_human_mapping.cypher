// A person's decision: the header maps to this relation only, and no later run changes it.
MERGE (h:Header {key: $key})
ON CREATE SET h.text = $text
MERGE (r:Relation {name: $relation})
WITH h, r
CALL (h, r) {
  MATCH (h)-[old:MAPS_TO]->(other:Relation)
  WHERE other <> r
  DELETE old
}
MERGE (h)-[m:MAPS_TO]->(r)
SET m.method = 'human', m.score = 1.0, m.reviewed = true
RETURN h.key AS key, r.name AS relation
