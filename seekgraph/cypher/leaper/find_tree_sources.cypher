// Kept tables with their key-column header and whether their tree already exists (resume).
MATCH (t:Table {status: 'kept'})
OPTIONAL MATCH (t)-[:HAS_COLUMN]->(k:Column {role: 'key'})
WITH t, head(collect(k.header)) AS key_header
RETURN t.table_id AS table_id, t.title AS title, t.section_title AS section_title,
       key_header, EXISTS { (:Tree {tree_id: 'tree:' + t.table_id}) } AS done
ORDER BY table_id
