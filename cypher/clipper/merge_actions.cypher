// Action nodes of state graphs (index 0 is the query, the last one the answer).
UNWIND $rows AS row
MATCH (g:StateGraph {graph_id: row.graph_id})
MERGE (a:Action {action_id: row.action_id})
SET a.index = row.index, a.thought = row.thought, a.tool = row.tool,
    a.arguments_json = row.arguments_json, a.is_query = row.is_query, a.is_answer = row.is_answer
MERGE (g)-[:HAS_NODE]->(a)
