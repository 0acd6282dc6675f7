// Before a state graph is written again: its Action and Information nodes and their edges go,
// so a graph a killed or different earlier attempt wrote leaves nothing behind.
UNWIND $graph_ids AS gid
MATCH (:StateGraph {graph_id: gid})-[:HAS_NODE]->(n)
WHERE n:Action OR n:Information
DETACH DELETE n
