MATCH (p:Page)
RETURN count(p) AS pages, count(p.embedding) AS embedded
