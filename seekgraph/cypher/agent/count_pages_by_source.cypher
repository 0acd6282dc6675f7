MATCH (p:Page)
RETURN p.source AS source, count(p) AS pages, count(p.embedding) AS embedded
ORDER BY source
