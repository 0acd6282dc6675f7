MATCH (run:TrainingRun {run_id: $run_id})
SET run.status = $status, run.metrics_json = $metrics_json, run.checkpoint = $checkpoint,
    run.checkpoints = $checkpoints, run.updated_at = datetime()
RETURN run.run_id AS run_id
