// Every table whose title is one of $titles, with its section, column headers in order and the
// key text of its first row (what a question names a table by) and its rows' anchors: two tables a question cannot tell
// apart, unless they are one table read twice (two page titles redirecting to one article).
MATCH (t:Table)
WHERE t.title IN $titles
RETURN t.table_id AS table_id, t.title AS title, t.section_title AS section_title,
       COLLECT {
         MATCH (t)-[:HAS_COLUMN]->(c:Column) WITH c ORDER BY c.index RETURN c.header
       } AS headers,
       head(COLLECT {
         MATCH (t)-[:HAS_ROW]->(r:Row)-[:ANCHOR]->(e:Entity)<-[h:HAS_CELL]-(r)
         WITH r, h, e ORDER BY r.index, h.column
         RETURN CASE WHEN e.name IS NOT NULL AND toLower(h.text) CONTAINS toLower(e.name) THEN e.name ELSE h.text END
       }) AS first_row,
       COLLECT {
         MATCH (t)-[:HAS_ROW]->(:Row)-[:ANCHOR]->(a:Entity) RETURN DISTINCT a.entity_id
       } AS anchors
