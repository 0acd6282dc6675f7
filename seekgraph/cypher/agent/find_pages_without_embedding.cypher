// The next pages to embed, in page id order after $after (the last id of the batch before;
// '' at first), read through the page id index. A fixed order gives every build the same
// batches, and so the same vectors to the last bit: a text's vector depends slightly on how
// long the other texts of its batch are (padding).
MATCH (p:Page)
WHERE p.page_id > $after AND p.embedding IS NULL
RETURN p.page_id AS page_id, coalesce(p.title, '') AS title, coalesce(p.text, '') AS text
ORDER BY p.page_id
LIMIT $limit
