UNWIND $rows AS row
MATCH (r:Rollout {rollout_id: row.rollout_id})
MERGE (s:Step {step_id: row.step_id})
SET s.index = row.index, s.role = row.role, s.thought = row.thought, s.tool = row.tool,
    s.arguments_json = row.arguments_json, s.observation = row.observation,
    s.tokens = row.tokens, s.is_detour = row.is_detour, s.detour_kind = row.detour_kind
MERGE (r)-[:HAS_STEP]->(s)
WITH s, row
WHERE row.previous IS NOT NULL
MATCH (p:Step {step_id: row.previous})
MERGE (p)-[:NEXT]->(s)
