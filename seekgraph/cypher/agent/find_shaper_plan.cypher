MATCH (t:Task {task_id: $task_id})-[:HAS_TRIPLE]->(tr:Triple)
OPTIONAL MATCH (tr)-[:OBJECT]->(c:Constant)
OPTIONAL MATCH (c)-[:DENOTES]->(x)
OPTIONAL MATCH (page:Page)-[:ABOUT]->(x)
RETURN tr.triple_id AS triple_id, tr.relation AS relation, coalesce(tr.layer, 0) AS layer,
       coalesce(tr.index, 0) AS idx, c.text AS constant,
       page.page_id AS constant_url
ORDER BY layer DESC, idx
