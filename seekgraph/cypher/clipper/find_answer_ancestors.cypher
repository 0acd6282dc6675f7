// Backward reachability over the stored graph: the actions from which the answer (or a
// required action) can be reached along PRODUCES/ENABLES. Only these can be necessary.
UNWIND $rows AS row
MATCH (g:StateGraph {graph_id: row.graph_id})-[:HAS_NODE]->(root:Action)
WHERE root.is_answer OR root.index IN row.roots
OPTIONAL MATCH (root)<-[:PRODUCES|ENABLES*1..]-(a:Action)
WITH row.graph_id AS graph_id, collect(DISTINCT root.index) AS roots, collect(DISTINCT a.index) AS up
RETURN graph_id, roots + [i IN up WHERE NOT i IN roots] AS ancestors
