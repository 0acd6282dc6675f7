// The search's result on a stored graph: the necessary action set, its cost, the flags.
UNWIND $rows AS row
MATCH (g:StateGraph {graph_id: row.graph_id})
SET g.necessary_actions = row.necessary, g.cost = row.cost, g.exact_cost = row.exact_cost
WITH g, row
MATCH (g)-[:HAS_NODE]->(a:Action)
SET a.necessary = a.index IN row.necessary
