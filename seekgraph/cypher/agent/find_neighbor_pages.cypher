UNWIND $page_ids AS page_id
MATCH (:Page {page_id: page_id})-[:LINKS_TO]-(n:Page)
RETURN DISTINCT n.page_id AS url
ORDER BY url
LIMIT $limit
