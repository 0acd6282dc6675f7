// The entities holding every clue (relation -> entity/value): a unique holder proves the clues
// identify one anchor. At most $limit ids come back.
UNWIND $clues AS c
CALL (c) {
  MATCH (x:Entity {entity_id: c.id}) WHERE c.kind = 'entity'
  RETURN x AS v
  UNION
  MATCH (x:Value {value_id: c.id}) WHERE c.kind = 'value'
  RETURN x AS v
}
MATCH (v)<-[:FACT {relation: c.relation}]-(e:Entity)
WITH c, collect(DISTINCT e.entity_id) AS holders
WITH collect(holders) AS sets
RETURN reduce(acc = sets[0], s IN sets[1..] | [x IN acc WHERE x IN s])[0..$limit] AS holders
