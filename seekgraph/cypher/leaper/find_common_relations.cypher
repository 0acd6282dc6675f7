// The relations every tree of each of $extents has (the closure of a tree set: the roots of the
// biclique enumeration, one per topic group).
UNWIND range(0, size($extents) - 1) AS i
CALL (i) {
  UNWIND $extents[i] AS tid
  MATCH (:Tree {tree_id: tid})-[:HAS_RELATION]->(s:Relation)
  WITH s.name AS name, count(DISTINCT tid) AS hits
  WHERE hits = size($extents[i])
  RETURN collect(name) AS intent
}
RETURN i, intent
ORDER BY i
