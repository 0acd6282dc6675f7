// The embedders whose vectors the pages carry (`embeddings.embedder_name`), one row each: one
// unless a build was resumed with another backend. Pages embedded before the name was recorded
// count as $unnamed (torch's vectors: the only ones then).
MATCH (p:Page)
WHERE p.embedding IS NOT NULL
RETURN DISTINCT coalesce(p.embedder, $unnamed) AS embedder
ORDER BY embedder
