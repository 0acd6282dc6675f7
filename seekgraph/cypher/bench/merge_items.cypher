UNWIND $rows AS row
MERGE (n:BenchItem {id: row.id})
SET n.name = row.name
