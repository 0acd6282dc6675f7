// Tables gone from their source: status `retired` with the reason (their rows, facts and page
// were deleted before, by ingest/delete_table_parts); the node stays for the provenance of what
// was built on it. Ingesting the table again brings it back as a new version.
UNWIND $rows AS row
MATCH (t:Table {table_id: row.table_id})
SET t.status = 'retired', t.reason = 'missing_from_source', t.detail = row.detail,
    t.retired_at = datetime()
