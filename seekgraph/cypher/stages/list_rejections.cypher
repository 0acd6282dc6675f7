// Rejected records one by one (record id = file:line@digest, a table id, a task id ...), for
// `db rejects --show`; paged by $skip/$limit in a stable order.
MATCH (r:Rejection)
WHERE ($stage IS NULL OR r.stage = $stage) AND ($reason IS NULL OR r.reason = $reason)
RETURN r.stage AS stage, r.record_id AS record_id, r.reason AS reason, r.detail AS detail
ORDER BY stage, reason, record_id
SKIP $skip
LIMIT $limit
