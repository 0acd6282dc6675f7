CALL db.index.fulltext.queryNodes('page_text', $query, {limit: $fetch})
YIELD node, score
WHERE $year IS NULL OR node.year = $year
RETURN node.page_id AS page_id, node.page_id AS url,
       coalesce(node.title, node.page_id) AS title, coalesce(node.text, '') AS text, score
ORDER BY score DESC, page_id
LIMIT $k
