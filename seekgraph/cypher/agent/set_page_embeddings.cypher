// $embedder names the vectors (`embeddings.embedder_name`): queries must be embedded alike
UNWIND $rows AS row
MATCH (p:Page {page_id: row.page_id})
SET p.embedding = row.embedding, p.embedder = $embedder
