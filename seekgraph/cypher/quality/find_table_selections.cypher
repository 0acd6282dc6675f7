// What says whether each table is a selection: title, section, size, source, the names of its
// row anchors and the key texts of the rows ingest dropped (their rejections' details).
UNWIND $table_ids AS tid
MATCH (t:Table {table_id: tid})
CALL (t) {
  OPTIONAL MATCH (t)-[:HAS_ROW]->(:Row)-[:ANCHOR]->(a:Entity)
  RETURN collect(DISTINCT a.name) AS names
}
CALL (t) {
  OPTIONAL MATCH (x:Rejection)
  WHERE x.rejection_id STARTS WITH 'ingest:' + t.table_id + '#r'
  RETURN collect(x.detail) AS dropped
}
RETURN t.table_id AS table_id, t.title AS title, t.section_title AS section_title,
       t.n_rows AS n_rows, t.source AS source, names, dropped
