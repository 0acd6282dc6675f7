// Tasks per kind, variant and status (the report's task table)
MATCH (t:Task)
RETURN t.kind AS kind, t.variant AS variant, coalesce(t.status, 'kept') AS status, count(*) AS n
ORDER BY kind, variant, status
