// A benchmark's own rollouts (one policy model), with their steps, so each measured run starts
// from the same state; other models' rollouts stay.
MATCH (r:Rollout {model: $model})
OPTIONAL MATCH (r)-[:HAS_STEP]->(s:Step)
DETACH DELETE r, s
