// Tasks the quality gate rejects: status and reason set, targets kept for the audit.
UNWIND $rows AS row
MATCH (t:Task {task_id: row.task_id})
SET t.status = 'rejected', t.reason = row.reason
