// The tables a task's facts come from, with how a question names them, whether the offline
// web serves the table as a page (a hop a reader cannot open is not a hop), and the header of
// its key column (what its rows are called, when their pages do not say) and the header of each
// relation's column (what a question calls the relation), and all its headers in order and the
// key text of its first row (a table without a section is named by them).
UNWIND $table_ids AS tid
OPTIONAL MATCH (t:Table {table_id: tid})
OPTIONAL MATCH (p:Page {page_id: 'table:' + tid})
OPTIONAL MATCH (t)-[:HAS_COLUMN]->(k:Column {role: 'key'})
WITH tid, t, p, head(collect(k.header)) AS key_header
RETURN tid AS table_id, t.title AS title, t.section_title AS section, p IS NOT NULL AS served,
       key_header,
       [(t)-[:HAS_COLUMN]->(c:Column) WHERE c.relation IS NOT NULL
        | {relation: c.relation, header: c.header}] AS columns,
       COLLECT {
         MATCH (t)-[:HAS_COLUMN]->(c:Column) WITH c ORDER BY c.index RETURN c.header
       } AS headers,
       head(COLLECT {
         MATCH (t)-[:HAS_ROW]->(r:Row)-[:ANCHOR]->(e:Entity)<-[h:HAS_CELL]-(r)
         WITH r, h, e ORDER BY r.index, h.column
         RETURN CASE WHEN e.name IS NOT NULL AND toLower(h.text) CONTAINS toLower(e.name) THEN e.name ELSE h.text END
       }) AS first_row
