// Passages and articles, each ABOUT the entity with the same id (named by the page title).
// row.content_hash is not set here: merge_page_links sets it once the links are written.
UNWIND $rows AS row
MERGE (p:Page {page_id: row.page_id})
SET p.title = row.title, p.text = row.text, p.source = row.source, p.url = row.url,
    p.year = row.year
MERGE (e:Entity {entity_id: row.page_id})
SET e.name = row.name, e.linked = true
MERGE (p)-[:ABOUT]->(e)
