// Which of these pages are finished (links written) and with which content hash.
UNWIND $ids AS id
MATCH (p:Page {page_id: id})
WHERE p.content_hash IS NOT NULL
RETURN p.page_id AS page_id, p.content_hash AS content_hash
