// Page links of a small knowledge graph, between the pages about two entities.
UNWIND $rows AS row
MATCH (a:Page {page_id: row.source})
MATCH (b:Page {page_id: row.target})
MERGE (a)-[:LINKS_TO]->(b)
