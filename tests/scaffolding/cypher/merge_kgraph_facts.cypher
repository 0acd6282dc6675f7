// FACT edges of a small knowledge graph (one per subject, relation, object; row -1 = not a table row).
UNWIND $rows AS row
MATCH (s:Entity {entity_id: row.subject})
CALL (row) {
  MATCH (o:Entity {entity_id: row.object}) RETURN o
  UNION
  MATCH (o:Value {value_id: row.object}) RETURN o
}
MERGE (s)-[f:FACT {relation: row.relation, table_id: row.table_id, row: -1}]->(o)
