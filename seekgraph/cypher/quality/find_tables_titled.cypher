// Every table whose title is one of $titles, with its section and column headers in order:
// what a question names a table by, to find two tables a question cannot tell apart.
MATCH (t:Table)
WHERE t.title IN $titles
RETURN t.table_id AS table_id, t.title AS title, t.section_title AS section_title,
       COLLECT {
         MATCH (t)-[:HAS_COLUMN]->(c:Column) WITH c ORDER BY c.index RETURN c.header
       } AS headers
