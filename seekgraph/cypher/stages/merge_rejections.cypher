// A rejected record is kept with its reason; re-running a stage updates, never duplicates.
UNWIND $rows AS row
MERGE (r:Rejection {rejection_id: row.stage + ':' + row.record_id})
SET r.stage = row.stage, r.record_id = row.record_id, r.reason = row.reason,
    r.detail = row.detail, r.updated_at = datetime()
