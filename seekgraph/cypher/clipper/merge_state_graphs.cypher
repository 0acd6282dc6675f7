// One StateGraph per (rollout, extractor, run), linked to its rollout.
UNWIND $rows AS row
MATCH (r:Rollout {rollout_id: row.rollout_id})
MERGE (g:StateGraph {graph_id: row.graph_id})
SET g.extractor = row.extractor, g.run = row.run, g.granularity = row.granularity,
    g.n_actions = row.n_actions, g.n_infos = row.n_infos,
    g.n_unused_infos = row.n_unused_infos, g.notes_json = row.notes_json
MERGE (g)-[:OF_ROLLOUT]->(r)
