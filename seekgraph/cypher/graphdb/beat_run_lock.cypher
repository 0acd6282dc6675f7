// The holder is alive: its heartbeat moves on (a lock whose heartbeat stands still is stale).
MATCH (l:RunLock {name: $lock})
WHERE l.owner = $owner
SET l.heartbeat = timestamp()
RETURN count(l) AS held
