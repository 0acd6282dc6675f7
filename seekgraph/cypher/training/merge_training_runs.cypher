UNWIND $rows AS row
MERGE (run:TrainingRun {run_id: row.run_id})
SET run.kind = row.kind, run.config_json = row.config_json, run.code_version = row.code_version,
    run.output_dir = row.output_dir, run.status = row.status,
    run.started_at = coalesce(run.started_at, datetime())
WITH run, row
OPTIONAL MATCH (d:Dataset {dataset_id: row.dataset_id})
FOREACH (_ IN CASE WHEN d IS NULL THEN [] ELSE [1] END | MERGE (run)-[:TRAINED_ON]->(d))
