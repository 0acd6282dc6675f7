// Every current tree (none built on a retired or earlier version of its table): id, root text
// and table (input of the Union stage).
MATCH (tree:Tree)-[:FROM_TABLE]->(t:Table)
WHERE tree.stale_reason IS NULL
RETURN tree.tree_id AS tree_id, tree.root AS root, t.table_id AS table_id
ORDER BY tree_id
