// Table nodes; written last for a kept table, so a set content_hash marks the table as finished.
UNWIND $rows AS row
MERGE (t:Table {table_id: row.table_id})
SET t.title = row.title, t.section_title = row.section_title, t.url = row.url,
    t.source = row.source, t.n_rows = row.n_rows, t.n_cols = row.n_cols,
    t.status = row.status, t.reason = row.reason, t.detail = row.detail,
    t.key_column = row.key_column, t.key_score = row.key_score,
    t.content_hash = row.content_hash, t.origin = row.origin, t.version = row.version,
    t.source_name = row.source_name, t.path = row.path, t.retired_at = null
