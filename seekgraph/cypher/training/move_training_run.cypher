// A finished run whose folder was moved: its folder and checkpoints where they are now.
MATCH (run:TrainingRun {run_id: $run_id})
SET run.output_dir = $output_dir, run.checkpoint = $checkpoint, run.checkpoints = $checkpoints,
    run.moved_at = datetime()
RETURN run.run_id AS run_id
