// Bare tree–relation edges (the bipartite graph of the Union step) for generated graphs in tests
// and benchmarks; real trees are written by leaper/merge_trees.
UNWIND $rows AS row
MERGE (t:Tree {tree_id: row.tree_id})
SET t.root = coalesce(t.root, row.root), t.relations = row.relations
WITH t, row
UNWIND row.relations AS name
MERGE (r:Relation {name: name})
MERGE (t)-[:HAS_RELATION]->(r)
