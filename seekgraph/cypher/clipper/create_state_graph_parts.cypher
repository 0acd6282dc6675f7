// The Action and Information nodes of state graphs with all their edges, in one pass per graph
// (the information some action relies on; each action counts the facts it produced that no
// action used in `unused_facts`).
// A graph's parts were deleted just before (delete_state_graph_parts), so they are created, not
// merged, and each edge names its ends by their position in the graph's own lists: no lookups.
// The graph's content hash is set in the same transaction: a stored hash means all parts are.
// Action 0 is the query, the last one the answer; PRODUCES: the action's observation introduced
// the fact; ENABLES: the action relies on the fact.
UNWIND $rows AS row
MATCH (g:StateGraph {graph_id: row.graph_id})
SET g.content_hash = row.content_hash
WITH g, row
CALL (g, row) {
  UNWIND row.infos AS info
  CREATE (g)-[:HAS_NODE]->(i:Information {info_id: info.info_id})
  SET i.key = info.key, i.text = info.text, i.kind = info.kind
  RETURN collect(i) AS infos
}
CALL (g, row, infos) {
  UNWIND row.actions AS act
  CREATE (g)-[:HAS_NODE]->(a:Action {action_id: act.action_id})
  SET a.index = act.index, a.thought = act.thought, a.tool = act.tool,
      a.arguments_json = act.arguments_json, a.is_query = act.is_query,
      a.is_answer = act.is_answer, a.unused_facts = act.unused_facts
  WITH a, act, infos
  CALL (a, act, infos) {
    UNWIND act.produces AS k
    WITH a, infos[k] AS i
    CREATE (a)-[:PRODUCES]->(i)
  }
  CALL (a, act, infos) {
    UNWIND act.enables AS k
    WITH a, infos[k] AS i
    CREATE (i)-[:ENABLES]->(a)
  }
}
