// Maximal bicliques of the tree × relation graph with their members, shared relations and the
// topic group whose search found them.
UNWIND $rows AS row
MERGE (b:Biclique {biclique_id: row.biclique_id})
SET b.trees = row.trees, b.relations = row.relations, b.size = size(row.trees),
    b.stale_reason = null
WITH b, row
CALL (b, row) {
  UNWIND row.trees AS tid
  MATCH (t:Tree {tree_id: tid})
  MERGE (b)-[:HAS_MEMBER]->(t)
}
CALL (b, row) {
  UNWIND row.relations AS name
  MATCH (r:Relation {name: name})
  MERGE (b)-[:SHARES]->(r)
}
CALL (b, row) {
  MATCH (g:TopicGroup {group_id: row.group_id})
  MERGE (g)-[:HAS_BICLIQUE]->(b)
}
