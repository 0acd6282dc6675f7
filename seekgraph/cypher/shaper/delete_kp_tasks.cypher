// Remove KP task graphs of the given sources (tasks, variables, constants, triples) and the
// shaper stages' rejections, so seeds and expansion can be re-made with other settings.
MATCH (t:Task {kind: 'shaper', variant: 'kp'}) WHERE t.source IN $sources
OPTIONAL MATCH (t)-[:HAS_VARIABLE|HAS_CONSTANT|HAS_TRIPLE]->(part)
DETACH DELETE part, t
WITH count(*) AS ignored
MATCH (r:Rejection) WHERE r.stage IN $stages
DETACH DELETE r
