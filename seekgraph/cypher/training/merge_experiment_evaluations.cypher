// An experiment and the evaluations it compares, each edge naming its arm and seed.
MERGE (x:Experiment {experiment_id: $experiment_id})
SET x.name = $name, x.config_json = $config_json, x.updated_at = datetime()
WITH x
UNWIND $rows AS row
MATCH (e:Evaluation {eval_id: row.eval_id})
MERGE (x)-[h:HAS_EVALUATION {arm: row.arm, seed: row.seed}]->(e)
