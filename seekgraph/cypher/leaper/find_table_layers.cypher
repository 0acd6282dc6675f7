// Second and third layer of the trees of a batch of tables: row anchors and the relations of
// their facts from the same table.
UNWIND $table_ids AS tid
MATCH (:Table {table_id: tid})-[:HAS_ROW]->(:Row)-[:ANCHOR]->(a:Entity)
WITH tid, collect(DISTINCT a) AS anchors
CALL (tid, anchors) {
  UNWIND anchors AS a
  OPTIONAL MATCH (a)-[f:FACT]->()
  WHERE f.table_id = tid
  RETURN collect(DISTINCT f.relation) AS relations
}
RETURN tid AS table_id, [a IN anchors | a.entity_id] AS anchors, relations
