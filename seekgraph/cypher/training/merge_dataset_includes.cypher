UNWIND $rows AS row
MATCH (d:Dataset {dataset_id: $dataset_id})
MATCH (r:Rollout {rollout_id: row.rollout_id})
MERGE (d)-[i:INCLUDES]->(r)
SET i.position = row.position
