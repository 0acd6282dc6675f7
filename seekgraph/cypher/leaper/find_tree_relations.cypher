// Every tree with its relations (input of the pure-Python and networkx enumerations).
MATCH (t:Tree)
OPTIONAL MATCH (t)-[:HAS_RELATION]->(r:Relation)
WITH t, collect(r.name) AS relations
RETURN t.tree_id AS tree_id, t.root AS root, relations
ORDER BY tree_id
