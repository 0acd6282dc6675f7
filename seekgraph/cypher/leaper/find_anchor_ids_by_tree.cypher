// Each tree's anchor entities, sorted (an input of the Union stage's topic grouping, whose
// `keep` step reads which trees share an anchor).
MATCH (tree:Tree)
OPTIONAL MATCH (tree)-[:HAS_ANCHOR]->(e:Entity)
WITH tree.tree_id AS tree_id, e.entity_id AS entity_id
ORDER BY tree_id, entity_id
RETURN tree_id, collect(entity_id) AS anchors
ORDER BY tree_id
