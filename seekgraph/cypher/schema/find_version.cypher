// The schema version the graph records (null: none), and whether it holds any data besides
// that marker (a graph without a marker but with data was built before versions were kept).
OPTIONAL MATCH (v:SchemaVersion {name: 'seekgraph'})
CALL () {
  MATCH (n)
  WHERE NOT n:SchemaVersion
  RETURN count(n) > 0 AS has_data
  LIMIT 1
}
RETURN v.version AS version, has_data
