// How a task executed on our graph: `exec_status` (non_empty, empty, unmapped_relation,
// unresolved_constant) and the number of answers it returned.
UNWIND $rows AS row
MATCH (t:Task {task_id: row.task_id})
SET t.exec_status = row.exec_status, t.exec_answers = row.exec_answers
