// Every page's id, title and text (the BM25 baseline of the search benchmark indexes them).
MATCH (p:Page)
RETURN p.page_id AS page_id, coalesce(p.title, '') AS title, coalesce(p.text, '') AS text
ORDER BY page_id
