// Small knowledge graphs for tests, benches and link-only data sets (synth/shaper/graphs.py):
// entities or values, and a page about every entity that has links.
UNWIND $rows AS row
CALL (row) {
  WITH row WHERE row.label = 'Entity'
  MERGE (e:Entity {entity_id: row.ref})
  SET e.name = row.name
  WITH e, row WHERE row.page
  MERGE (p:Page {page_id: row.ref})
  SET p.title = row.name, p.url = 'https://en.wikipedia.org' + row.ref,
      p.source = coalesce(p.source, row.source)
  MERGE (p)-[:ABOUT]->(e)
}
CALL (row) {
  WITH row WHERE row.label = 'Value'
  MERGE (v:Value {value_id: row.ref})
  SET v.text = row.name, v.kind = 'text', v.normalized = toLower(row.name)
}
