// A kept table rendered as a searchable page, with the entities its cells link to.
UNWIND $rows AS row
MATCH (t:Table {table_id: row.table_id})
MERGE (p:Page {page_id: row.page_id})
SET p.title = row.title, p.text = row.text, p.url = row.url, p.source = 'table'
MERGE (p)-[:RENDERS]->(t)
FOREACH (id IN row.mentions |
  MERGE (e:Entity {entity_id: id})
  MERGE (p)-[:MENTIONS]->(e))
