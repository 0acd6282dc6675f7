// Which of these tables are already in the graph: content hash (to skip or redo), status and
// origin (a rejected copy from another file never replaces a kept table), and the version (the
// content digest) a new version supersedes.
UNWIND $ids AS id
MATCH (t:Table {table_id: id})
RETURN t.table_id AS table_id, t.content_hash AS content_hash, t.status AS status,
       t.origin AS origin, t.version AS version
