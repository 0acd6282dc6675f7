UNWIND $rows AS row
MATCH (p:Page {page_id: row.page_id})
SET p.embedding = row.embedding
