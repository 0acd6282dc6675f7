// Second and third layer of the trees of a batch of tables: row anchors (each with its name
// and the opening of its own page, which says what it is) and the relations of their facts
// from the same table.
UNWIND $table_ids AS tid
MATCH (:Table {table_id: tid})-[:HAS_ROW]->(:Row)-[:ANCHOR]->(a:Entity)
WITH tid, collect(DISTINCT a) AS anchors
CALL (tid, anchors) {
  UNWIND anchors AS a
  OPTIONAL MATCH (a)-[f:FACT]->()
  WHERE f.table_id = tid
  RETURN collect(DISTINCT f.relation) AS relations
}
CALL (anchors) {
  UNWIND anchors AS a
  OPTIONAL MATCH (p:Page)-[:ABOUT]->(a)
  WITH a, head(collect(left(p.text, 600))) AS text
  RETURN collect({id: a.entity_id, name: a.name, text: text}) AS pages
}
RETURN tid AS table_id, [a IN anchors | a.entity_id] AS anchors, relations, pages
