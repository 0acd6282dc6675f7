// Training runs with their logged metrics (JSON), for the training curves
MATCH (r:TrainingRun)
RETURN r.run_id AS run_id, r.kind AS kind, r.status AS status, r.metrics_json AS metrics_json
ORDER BY run_id
