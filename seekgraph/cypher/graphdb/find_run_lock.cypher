// The holder of the graph's run lock (no row when nobody holds it).
MATCH (l:RunLock {name: $lock})
WHERE l.owner IS NOT NULL
RETURN l.owner AS owner, l.host AS host, l.pid AS pid, l.stage AS stage,
       toString(l.started_at) AS since, timestamp() - l.heartbeat AS age_ms
