// Information nodes of state graphs (atomic facts, keyed per graph).
UNWIND $rows AS row
MATCH (g:StateGraph {graph_id: row.graph_id})
MERGE (i:Information {info_id: row.info_id})
SET i.key = row.key, i.text = row.text, i.kind = row.kind
MERGE (g)-[:HAS_NODE]->(i)
