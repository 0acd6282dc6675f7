// Record on the column which relation its facts carry (read back by the next sync).
UNWIND $rows AS row
MATCH (c:Column {column_id: row.table_id + '#' + toString(row.column)})
SET c.relation = row.relation
