// The checkpoint a student policy runs: the run named by $run_id, else the latest finished SFT run.
MATCH (run:TrainingRun)
WHERE run.status = 'finished' AND run.checkpoint IS NOT NULL
  AND (($run_id IS NULL AND run.kind = 'sft') OR run.run_id = $run_id)
RETURN run.run_id AS run_id, run.checkpoint AS checkpoint
ORDER BY run.updated_at DESC, run.run_id
LIMIT 1
