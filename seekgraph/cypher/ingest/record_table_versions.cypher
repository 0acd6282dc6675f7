// The version of a table that a new version replaces, kept for provenance before its rows go:
// what it said (its page's text), where it was read, its digest and status. A TableVersion is
// no Page and holds no facts, so search never serves it and synthesis never reads it. Run
// again after a kill (the page already gone), it keeps the text it recorded the first time.
UNWIND $rows AS row
MATCH (t:Table {table_id: row.table_id})
OPTIONAL MATCH (p:Page)-[:RENDERS]->(t)
MERGE (v:TableVersion {version_id: row.table_id + '@' + row.version})
ON CREATE SET v.superseded_at = datetime()
SET v.table_id = row.table_id, v.version = row.version, v.superseded_by = row.superseded_by,
    v.title = t.title, v.section_title = t.section_title, v.origin = t.origin,
    v.n_rows = t.n_rows, v.status = t.status, v.text = coalesce(p.text, v.text)
MERGE (t)-[:HAD_VERSION]->(v)
