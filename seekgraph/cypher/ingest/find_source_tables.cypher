// The tables of a source that are still served (kept or rejected), with the file each was read
// from: those not read again are missing from the source (`--retire-missing` retires them).
MATCH (t:Table {source_name: $source})
WHERE t.status IN ['kept', 'rejected']
RETURN t.table_id AS table_id, t.path AS path
ORDER BY table_id
