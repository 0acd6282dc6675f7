// How many entities have each candidate clue (relation -> entity/value): its selectivity.
UNWIND $clues AS c
CALL (c) {
  MATCH (x:Entity {entity_id: c.id}) WHERE c.kind = 'entity'
  RETURN x AS v
  UNION
  MATCH (x:Value {value_id: c.id}) WHERE c.kind = 'value'
  RETURN x AS v
}
MATCH (v)<-[:FACT {relation: c.relation}]-(e:Entity)
RETURN c.relation AS relation, c.id AS id, count(DISTINCT e) AS holders
