// Out-links: MENTIONS the linked entity, LINKS_TO the linked page when it exists; then mark done.
UNWIND $rows AS row
MATCH (p:Page {page_id: row.page_id})
CALL (p, row) {
  UNWIND row.links AS link
  MERGE (e:Entity {entity_id: link.id})
  ON CREATE SET e.name = link.name, e.linked = true
  MERGE (p)-[:MENTIONS]->(e)
  WITH p, link
  MATCH (q:Page {page_id: link.id})
  MERGE (p)-[:LINKS_TO]->(q)
}
SET p.content_hash = row.content_hash
