// The offline web: full-text and vector indexes over pages, plus lookups the tools use.
// Applied with every schema (graphdb.schema.SCHEMA_FILES); IF NOT EXISTS keeps it idempotent.
CREATE FULLTEXT INDEX page_text IF NOT EXISTS FOR (p:Page) ON EACH [p.title, p.text];
// Unquantized: a quantized index's scores depend on how its segments were built (flushes,
// merges, crash recovery), so the same pages would rank differently in two builds.
CREATE VECTOR INDEX page_embedding IF NOT EXISTS FOR (p:Page) ON (p.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine',
                       `vector.quantization.enabled`: false}};
CREATE INDEX page_url IF NOT EXISTS FOR (p:Page) ON (p.url);
CREATE INDEX page_year IF NOT EXISTS FOR (p:Page) ON (p.year);
CREATE INDEX task_kind IF NOT EXISTS FOR (n:Task) ON (n.kind);
CREATE INDEX rollout_policy IF NOT EXISTS FOR (n:Rollout) ON (n.policy, n.model);
