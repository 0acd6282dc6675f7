MATCH (p:Page)
WHERE p.embedding IS NULL
RETURN p.page_id AS page_id, coalesce(p.title, '') AS title, coalesce(p.text, '') AS text
LIMIT $limit
