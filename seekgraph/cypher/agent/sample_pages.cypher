MATCH (p:Page)
WHERE p.title IS NOT NULL AND ($source IS NULL OR p.source = $source)
WITH p ORDER BY p.page_id SKIP $skip LIMIT $limit
RETURN p.page_id AS page_id, p.title AS title, coalesce(p.text, '') AS text
