MATCH (n:BenchItem)
WITH count(n) AS nodes
OPTIONAL MATCH (:BenchItem)-[r:BENCH_LINK]->(:BenchItem)
RETURN nodes, count(r) AS relationships
