// The content hash of each stored state graph among $graph_ids (null: parts not all written).
UNWIND $graph_ids AS gid
MATCH (g:StateGraph {graph_id: gid})
RETURN gid AS graph_id, g.content_hash AS content_hash
