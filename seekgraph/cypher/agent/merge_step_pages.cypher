UNWIND $rows AS row
MATCH (s:Step {step_id: row.step_id})
MATCH (p:Page {page_id: row.page_id})
MERGE (s)-[:SAW]->(p)
