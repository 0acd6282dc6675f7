// A trajectory as a table: every step with its tool, arguments, detour, tokens and the targets it revealed
MATCH (r:Rollout {rollout_id: $rollout_id})-[:HAS_STEP]->(s:Step)
RETURN s.index AS step, s.kind AS kind, s.tool AS tool,
       left(s.content, 200) AS message, s.detour_kind AS detour, s.tokens AS tokens,
       [(s)-[:REVEALED]->(x) | coalesce(x.name, x.text)] AS revealed
ORDER BY step
