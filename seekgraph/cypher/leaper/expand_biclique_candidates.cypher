// One level of Close-by-One over (:Tree)-[:HAS_RELATION]->(:Relation), for many closed pairs at
// once (every topic group searched together: one query per level, not per pair).
// Each of $nodes is a closed pair {i, extent, intent, after}: trees, the relations they all
// share, and the last relation added. For each relation r > after not in intent, the trees of
// the extent that have r form the child extent (kept with at least $min_trees of them), and the
// relations all of those trees share are its closure (the child intent). A child is canonical
// when its closure adds no relation smaller than r, so every closed pair is produced once.
// Each tree of the extent is expanded once per pair: the children and their closures are
// computed from the relation lists read then (no second read per child).
UNWIND $nodes AS node
CALL (node) {
  UNWIND node.extent AS tid
  MATCH (:Tree {tree_id: tid})-[:HAS_RELATION]->(r:Relation)
  WITH tid, collect(DISTINCT r.name) AS names
  UNWIND names AS relation
  WITH tid, names, relation
  WHERE relation > node.after AND NOT relation IN node.intent
  WITH relation, collect(tid) AS child, collect(names) AS lists
  WHERE size(child) >= $min_trees
  WITH relation, child,
       reduce(shared = head(lists), names IN tail(lists) | [s IN shared WHERE s IN names])
         AS closure
  WHERE all(s IN closure WHERE s >= relation OR s IN node.intent)
  RETURN relation, child, closure
}
WITH node.i AS i, relation, child, closure
ORDER BY i, relation
// one record for the whole batch: [pair position, relation added, child extent, its closure]
// per child (one list decodes several times faster in the driver than a record per child)
RETURN collect([i, relation, child, closure]) AS children
