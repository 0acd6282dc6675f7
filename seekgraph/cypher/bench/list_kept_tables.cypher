// Every kept table's id, in order (the search benchmark samples its questions from them).
MATCH (t:Table {status: 'kept'})
RETURN t.table_id AS table_id
ORDER BY table_id
