// Tables with a given status (all when $status is null), with their reason and key column.
MATCH (t:Table)
WHERE $status IS NULL OR t.status = $status
RETURN t.table_id AS table_id, t.status AS status, t.reason AS reason, t.detail AS detail,
       t.key_column AS key_column, t.n_rows AS n_rows
ORDER BY table_id
