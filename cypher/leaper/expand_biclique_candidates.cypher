// One level of Close-by-One over (:Tree)-[:HAS_RELATION]->(:Relation), for many closed pairs at
// once (every topic group searched together: one query per level, not per pair).
// Each of $nodes is a closed pair {node, extent, intent, after}: trees, the relations they all
// share, and the last relation added. For each relation r > after not in intent, the trees of
// the extent that have r form the child extent (kept with at least $min_trees of them), and the
// relations all of those trees share are its closure (the child intent). A child is canonical
// when its closure adds no relation smaller than r, so every closed pair is produced once.
UNWIND $nodes AS node
CALL (node) {
  UNWIND node.extent AS tid
  MATCH (:Tree {tree_id: tid})-[:HAS_RELATION]->(r:Relation)
  WHERE r.name > node.after AND NOT r.name IN node.intent
  WITH r.name AS relation, collect(DISTINCT tid) AS child
  WHERE size(child) >= $min_trees
  CALL (child) {
    UNWIND child AS cid
    MATCH (:Tree {tree_id: cid})-[:HAS_RELATION]->(s:Relation)
    WITH s.name AS name, count(DISTINCT cid) AS hits
    WHERE hits = size(child)
    RETURN collect(name) AS closure
  }
  WITH relation, child, closure
  WHERE all(s IN closure WHERE s >= relation OR s IN node.intent)
  RETURN relation, child, closure
}
RETURN node.node AS node, relation, child AS extent, closure AS intent
ORDER BY node, relation
