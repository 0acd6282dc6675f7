// A run's effect: its evaluations next to the evaluations of the same model before training.
MATCH (e:Evaluation)
WHERE e.checkpoint IN $checkpoints
OPTIONAL MATCH (e)-[:EVALUATES]->(run:TrainingRun)
RETURN e.eval_id AS eval_id, e.checkpoint AS checkpoint, run.run_id AS run_id,
       e.accuracy AS accuracy, e.f1 AS f1, e.rounds AS rounds, e.isr AS isr, e.ise AS ise,
       e.fae AS fae, e.format_error_rate AS format_error_rate, e.n_tasks AS n_tasks,
       e.valid_turn_rate AS valid_turn_rate, e.tokens AS tokens
ORDER BY e.checkpoint
