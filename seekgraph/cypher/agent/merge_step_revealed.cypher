UNWIND $rows AS row
MATCH (s:Step {step_id: row.step_id})
CALL (row) {
  MATCH (x:Entity {entity_id: row.target_id}) RETURN x
  UNION
  MATCH (x:Value {value_id: row.target_id}) RETURN x
}
MERGE (s)-[:REVEALED]->(x)
