// CSV and HTML tables of schema version 2, whose ids named their content (`csv:<path>@<digest>`)
// rather than their place in a source: they are retired by the migration to version 3.
MATCH (t:Table)
WHERE (t.table_id STARTS WITH 'csv:' OR t.table_id STARTS WITH 'html:')
  AND t.source_name IS NULL AND t.status IN ['kept', 'rejected']
RETURN t.table_id AS table_id
ORDER BY table_id
