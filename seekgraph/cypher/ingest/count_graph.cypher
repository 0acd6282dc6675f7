// Nodes per label and relationships per type (for summaries, benchmarks and idempotence checks).
CALL () {
  MATCH (n)
  UNWIND labels(n) AS label
  RETURN 'node:' + label AS kind
  UNION ALL
  MATCH ()-[r]->()
  RETURN 'rel:' + type(r) AS kind
}
RETURN kind, count(*) AS n
ORDER BY kind
