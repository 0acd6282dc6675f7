MATCH (run:TrainingRun)
WHERE run.checkpoint = $checkpoint OR $checkpoint IN coalesce(run.checkpoints, [])
RETURN run.run_id AS run_id, run.kind AS kind
ORDER BY run.run_id
LIMIT 1
