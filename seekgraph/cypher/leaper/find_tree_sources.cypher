// Kept tables with their key-column header, what says whether they are a selection (size,
// source, the key texts of the rows ingest dropped) and whether their tree already exists (a
// stale tree, built on an earlier version of the table, is built again).
MATCH (t:Table {status: 'kept'})
OPTIONAL MATCH (t)-[:HAS_COLUMN]->(k:Column {role: 'key'})
WITH t, head(collect(k.header)) AS key_header
CALL (t) {
  OPTIONAL MATCH (x:Rejection)
  WHERE x.rejection_id STARTS WITH 'ingest:' + t.table_id + '#r'
  RETURN collect(x.detail) AS dropped, collect(x.reason) AS dropped_reasons
}
RETURN t.table_id AS table_id, t.title AS title, t.section_title AS section_title,
       t.n_rows AS n_rows, t.source AS source, dropped, dropped_reasons,
       key_header, EXISTS { (x:Tree {tree_id: 'tree:' + t.table_id}) WHERE x.stale_reason IS NULL } AS done
ORDER BY table_id
