// Generated source tables in the shape of docs/schema.md section 1 (tests and benchmarks only;
// real tables come from `seekgraph ingest`). One row = one table row: its anchor and its facts.
UNWIND $rows AS row
MERGE (t:Table {table_id: row.table_id})
SET t.title = row.title, t.section_title = row.section_title, t.status = 'kept',
    t.source = 'generated', t.key_column = 0
MERGE (k:Column {column_id: row.table_id + '#0'})
SET k.table_id = row.table_id, k.index = 0, k.header = row.key_header, k.role = 'key'
MERGE (t)-[:HAS_COLUMN]->(k)
MERGE (r:Row {row_id: row.table_id + '#r' + toString(row.index)})
SET r.table_id = row.table_id, r.index = row.index
MERGE (t)-[:HAS_ROW]->(r)
MERGE (a:Entity {entity_id: row.anchor_id})
ON CREATE SET a.name = row.anchor_name
MERGE (r)-[:ANCHOR]->(a)
WITH t, a, row
CALL (t, a, row) {
  UNWIND row.facts AS f
  MERGE (c:Column {column_id: row.table_id + '#' + toString(f.column)})
  SET c.table_id = row.table_id, c.index = f.column, c.header = f.relation, c.role = 'attribute'
  MERGE (t)-[:HAS_COLUMN]->(c)
  MERGE (:Relation {name: f.relation})
}
CALL (a, row) {
  UNWIND row.facts AS f
  WITH a, row, f WHERE f.kind = 'entity'
  MERGE (e:Entity {entity_id: f.id})
  ON CREATE SET e.name = f.text
  MERGE (a)-[:FACT {relation: f.relation, table_id: row.table_id, row: row.index}]->(e)
}
CALL (a, row) {
  UNWIND row.facts AS f
  WITH a, row, f WHERE f.kind <> 'entity'
  MERGE (v:Value {value_id: f.id})
  ON CREATE SET v.kind = f.kind, v.text = f.text, v.normalized = f.normalized
  MERGE (a)-[:FACT {relation: f.relation, table_id: row.table_id, row: row.index}]->(v)
}
