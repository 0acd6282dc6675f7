// Which of these tables are already in the graph, and with which content hash (to skip or redo).
UNWIND $ids AS id
MATCH (t:Table {table_id: id})
RETURN t.table_id AS table_id, t.content_hash AS content_hash, t.status AS status
