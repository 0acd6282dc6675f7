// Information -[:ENABLES]-> Action: the action relies on the fact.
UNWIND $rows AS row
MATCH (i:Information {info_id: row.info_id})
MATCH (a:Action {action_id: row.action_id})
MERGE (i)-[:ENABLES]->(a)
