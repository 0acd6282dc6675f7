// One Close-by-One step of maximal-biclique enumeration over (:Tree)-[:HAS_RELATION]->(:Relation).
// Given a closed pair ($extent trees, $intent relations) and the last relation added ($after),
// return every canonical child: for each relation r > $after not in $intent, the trees of $extent
// that have r (the child extent, at least $min_trees of them) and the relations shared by all of
// those trees (the child intent, its closure). A child is canonical when its closure adds no
// relation smaller than r, so every closed pair is produced exactly once.
UNWIND $extent AS tid
MATCH (t:Tree {tree_id: tid})-[:HAS_RELATION]->(r:Relation)
WHERE r.name > $after AND NOT r.name IN $intent
WITH r.name AS relation, collect(DISTINCT t.tree_id) AS child
WHERE size(child) >= $min_trees
CALL (child) {
  UNWIND child AS cid
  MATCH (:Tree {tree_id: cid})-[:HAS_RELATION]->(s:Relation)
  WITH s.name AS name, count(DISTINCT cid) AS hits
  WHERE hits = size(child)
  RETURN collect(name) AS closure
}
WITH relation, child, closure
WHERE all(s IN closure WHERE s >= relation OR s IN $intent)
RETURN relation, child AS extent, closure AS intent
ORDER BY relation
