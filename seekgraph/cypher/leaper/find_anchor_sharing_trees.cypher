// The trees of $tree_ids that share an anchor entity with another tree of $tree_ids. Only these
// can take part in a Union task, whose answer is the set of anchors common to two or more trees.
UNWIND $tree_ids AS tid
MATCH (:Tree {tree_id: tid})-[:HAS_ANCHOR]->(e:Entity)
WITH e, collect(DISTINCT tid) AS holders
WHERE size(holders) >= 2
UNWIND holders AS tree_id
RETURN DISTINCT tree_id
