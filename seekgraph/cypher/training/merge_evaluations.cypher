UNWIND $rows AS row
MERGE (e:Evaluation {eval_id: row.eval_id})
SET e.checkpoint = row.checkpoint, e.accuracy = row.accuracy, e.rounds = row.rounds,
    e.isr = row.isr, e.ise = row.ise, e.fae = row.fae, e.f1 = row.f1, e.n_tasks = row.n_tasks,
    e.format_error_rate = row.format_error_rate,
    e.valid_turn_rate = row.valid_turn_rate, e.tokens = row.tokens, e.n_turns = row.n_turns, e.split = row.split, e.model = row.model,
    e.settings_json = row.settings_json, e.evaluated_at = datetime()
WITH e, row
OPTIONAL MATCH (run:TrainingRun {run_id: row.run_id})
FOREACH (_ IN CASE WHEN run IS NULL THEN [] ELSE [1] END | MERGE (e)-[:EVALUATES]->(run))
