UNWIND $rows AS row
MATCH (r:Rollout {rollout_id: row.rollout_id})
SET r.isr = row.isr, r.ise = row.ise, r.precision = row.precision, r.recall = row.recall,
    r.f1 = row.f1, r.accuracy = row.accuracy, r.fae = row.fae, r.n_targets = row.n_targets,
    r.n_found = row.n_found, r.n_found_visit = row.n_found_visit, r.actions = row.actions
