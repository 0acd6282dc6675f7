UNWIND $rows AS row
MATCH (a:BenchItem {id: row.src})
MATCH (b:BenchItem {id: row.dst})
MERGE (a)-[:BENCH_LINK]->(b)
