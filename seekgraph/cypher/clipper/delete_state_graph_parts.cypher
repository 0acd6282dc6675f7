// Before a state graph is written again: its Action and Information nodes and their edges go,
// so a graph a killed or different earlier attempt wrote leaves nothing behind. Its content
// hash goes in the same transaction (it is set again with the new parts).
UNWIND $graph_ids AS gid
MATCH (g:StateGraph {graph_id: gid})
REMOVE g.content_hash
WITH g
MATCH (g)-[:HAS_NODE]->(n)
WHERE n:Action OR n:Information
DETACH DELETE n
