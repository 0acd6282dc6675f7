MATCH (r:Rejection)
WHERE $stage IS NULL OR r.stage = $stage
RETURN r.stage AS stage, r.reason AS reason, count(*) AS n
ORDER BY stage, n DESC
