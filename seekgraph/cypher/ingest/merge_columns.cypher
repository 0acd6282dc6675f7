// Columns with their role and key features; a named column points to its Header.
UNWIND $rows AS row
MERGE (t:Table {table_id: row.table_id})
MERGE (c:Column {column_id: row.column_id})
SET c.table_id = row.table_id, c.index = row.index, c.header = row.header, c.role = row.role,
    c.link_ratio = row.link_ratio, c.uniqueness = row.uniqueness, c.key_score = row.key_score,
    c.relation = row.relation
MERGE (t)-[:HAS_COLUMN]->(c)
FOREACH (key IN CASE WHEN row.header_key = '' THEN [] ELSE [row.header_key] END |
  MERGE (h:Header {key: key})
  ON CREATE SET h.text = row.header
  MERGE (c)-[:HAS_HEADER]->(h))
