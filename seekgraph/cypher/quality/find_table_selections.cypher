// What says whether each table is a selection, and how its rows were read: title, section,
// size, source, the names of its row anchors, the key texts of the rows ingest dropped (their
// rejections' details), and each kept row's anchors with its key cell's text.
UNWIND $table_ids AS tid
MATCH (t:Table {table_id: tid})
CALL (t) {
  OPTIONAL MATCH (t)-[:HAS_ROW]->(:Row)-[:ANCHOR]->(a:Entity)
  RETURN collect(DISTINCT a.name) AS names
}
CALL (t) {
  OPTIONAL MATCH (x:Rejection)
  WHERE x.rejection_id STARTS WITH 'ingest:' + t.table_id + '#r'
  RETURN collect(x.detail) AS dropped, collect(x.reason) AS dropped_reasons
}
CALL (t) {
  OPTIONAL MATCH (t)-[:HAS_ROW]->(r:Row)
  OPTIONAL MATCH (r)-[h:HAS_CELL]->()
  WHERE h.column = t.key_column
  WITH r, head(collect(h.text)) AS text
  OPTIONAL MATCH (r)-[:ANCHOR]->(a:Entity)
  WITH r, text, collect(a.entity_id) AS anchors
  RETURN collect({anchors: anchors, text: text}) AS rows
}
RETURN t.table_id AS table_id, t.title AS title, t.section_title AS section_title,
       t.n_rows AS n_rows, t.source AS source, names, dropped, dropped_reasons, rows
