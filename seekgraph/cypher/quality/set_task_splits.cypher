// The held-out split of kept tasks, decided by their source tables (`seekgraph.synth.split`).
UNWIND $rows AS row
MATCH (t:Task {task_id: row.task_id})
SET t.split = row.split
