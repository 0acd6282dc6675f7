// Synthetic tasks and rollouts in the agent's shape (tests and benchmarks only; see
// training/synthetic.py). Pruned ones point at their original with PRUNED_FROM.
UNWIND $rows AS row
MERGE (t:Task {task_id: row.task_id})
SET t.kind = row.kind, t.variant = row.variant, t.split = row.split, t.question = row.question,
    t.answer_json = row.answer_json, t.status = 'kept'
MERGE (r:Rollout {rollout_id: row.rollout_id})
SET r.task_id = row.task_id, r.policy = row.policy, r.model = row.model, r.status = 'done',
    r.termination = row.termination, r.prediction = row.prediction, r.rounds = row.rounds,
    r.tokens = row.tokens, r.messages_json = row.messages_json, r.pruned = row.pruned,
    r.kept = row.kept, r.isr = row.isr, r.ise = row.ise, r.f1 = row.f1,
    r.accuracy = row.accuracy, r.max_rounds = 100
MERGE (r)-[:FOR_TASK]->(t)
WITH r, row
OPTIONAL MATCH (o:Rollout {rollout_id: row.original_id})
FOREACH (_ IN CASE WHEN o IS NULL THEN [] ELSE [1] END | MERGE (r)-[:PRUNED_FROM]->(o))
