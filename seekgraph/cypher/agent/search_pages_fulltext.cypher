// Full-text hits of one query. The index cuts its $fetch hits by score and, among equal
// scores, by internal document order, which differs between builds; `index_hits` and `lowest`
// let the caller keep only complete groups of equal score (see WebTools.ranked).
CALL db.index.fulltext.queryNodes('page_text', $query, {limit: $fetch})
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
