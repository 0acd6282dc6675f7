// One training run by id: how far it got (a finished run is not trained again).
MATCH (run:TrainingRun {run_id: $run_id})
RETURN run.run_id AS run_id, run.status AS status, run.checkpoint AS checkpoint,
       run.checkpoints AS checkpoints, run.metrics_json AS metrics_json,
       run.output_dir AS output_dir
