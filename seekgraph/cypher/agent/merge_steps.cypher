// One step per turn: the assistant message and the tool response, verbatim (the wire format),
// what the rollout measured, and the parsed kind and tool for queries.
UNWIND $rows AS row
MATCH (r:Rollout {rollout_id: row.rollout_id})
MERGE (s:Step {step_id: row.step_id})
SET s.index = row.index, s.source_index = row.source_index, s.content = row.content,
    s.response = row.response, s.kind = row.kind, s.tool = row.tool, s.tokens = row.tokens,
    s.detour_kind = row.detour_kind, s.tool_error = row.tool_error,
    s.rewritten = row.rewritten, s.rewrite = row.rewrite
MERGE (r)-[:HAS_STEP]->(s)
WITH s, row
WHERE row.previous IS NOT NULL
MATCH (p:Step {step_id: row.previous})
MERGE (p)-[:NEXT]->(s)
