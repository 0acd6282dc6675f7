UNWIND $rollout_ids AS rid
MATCH (:Rollout {rollout_id: rid})-[:HAS_STEP]->(s:Step)
RETURN rid AS rollout_id, s.index AS index, s.role AS role, s.tool AS tool,
       coalesce(s.observation, '') AS observation
ORDER BY rollout_id, index
