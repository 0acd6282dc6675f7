// The exact nearest pages to one query vector: every embedded page scored, ties by page id, so
// the ranking is the same in every build of the graph (the approximate index's answers depend
// on how its segments were merged). For corpora small enough (WebTools.exact_vector_pages).
MATCH (node:Page)
WHERE node.embedding IS NOT NULL AND ($year IS NULL OR node.year = $year)
WITH node, vector.similarity.cosine(node.embedding, $vector) AS score
ORDER BY score DESC, node.page_id
LIMIT $fetch
RETURN node.page_id AS page_id, node.page_id AS url,
       coalesce(node.title, node.page_id) AS title, coalesce(node.text, '') AS text, score,
       0 AS index_hits, 0.0 AS lowest
ORDER BY score DESC, page_id
LIMIT $k
