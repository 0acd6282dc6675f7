// Nearest pages to one query vector; `index_hits` and `lowest` as in search_pages_fulltext.
CALL db.index.vector.queryNodes('page_embedding', $fetch, $vector)
YIELD node, score
WITH collect({node: node, score: score}) AS hits
WITH hits, size(hits) AS index_hits, hits[size(hits) - 1].score AS lowest
UNWIND hits AS hit
WITH hit.node AS node, hit.score AS score, index_hits, lowest
WHERE $year IS NULL OR node.year = $year
RETURN node.page_id AS page_id, node.page_id AS url,
       coalesce(node.title, node.page_id) AS title, coalesce(node.text, '') AS text, score,
       index_hits, lowest
ORDER BY score DESC, page_id
LIMIT $k
