// Take the graph's run lock for $owner in one transaction. The lock node is MERGEd on its
// unique name, and writing `_lock` first takes its write lock, so two runs never both read it
// as free. It is free when nobody holds it, when $owner already does, when the holder's last
// heartbeat is older than $stale_ms (server clock), or when the holder is $dead_owner (a run
// of this host whose process is gone, checked by the caller). Returns the holder after the
// attempt and, when a dead or stale holder was replaced, who that was.
MERGE (l:RunLock {name: $lock})
SET l._lock = true
WITH l, l.owner AS before_owner, l.host AS before_host, l.pid AS before_pid,
     l.stage AS before_stage, toString(l.started_at) AS before_since,
     timestamp() - coalesce(l.heartbeat, 0) AS before_age_ms
WITH l, before_owner, before_host, before_pid, before_stage, before_since, before_age_ms,
     (l.owner IS NULL OR l.owner = $owner OR before_age_ms > $stale_ms
      OR l.owner = $dead_owner) AS free
FOREACH (_ IN CASE WHEN free THEN [1] ELSE [] END |
  SET l.owner = $owner, l.host = $host, l.pid = $pid, l.stage = $stage,
      l.started_at = CASE WHEN before_owner = $owner THEN l.started_at ELSE datetime() END,
      l.heartbeat = timestamp())
REMOVE l._lock
RETURN free AS mine, l.owner AS owner, l.host AS host, l.pid AS pid, l.stage AS stage,
       toString(l.started_at) AS since, timestamp() - l.heartbeat AS age_ms,
       CASE WHEN free AND before_owner IS NOT NULL AND before_owner <> $owner
            THEN {owner: before_owner, host: before_host, pid: before_pid, stage: before_stage,
                  since: before_since, age_ms: before_age_ms}
       END AS broken
