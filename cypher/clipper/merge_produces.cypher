// Action -[:PRODUCES]-> Information: the action's observation introduced the fact.
UNWIND $rows AS row
MATCH (a:Action {action_id: row.action_id})
MATCH (i:Information {info_id: row.info_id})
MERGE (a)-[:PRODUCES]->(i)
