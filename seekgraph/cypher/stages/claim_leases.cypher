// Claim work items for one worker. A new or expired lease (or one this worker holds) becomes
// this worker's until now + $ttl_ms; a live lease of another worker is left alone. Writing
// `_lock` first takes the node's write lock, so two workers never both read it as free.
// Times are the server's clock (timestamp()), so workers on several machines agree.
UNWIND $keys AS item
MERGE (l:Lease {key: $stage + '|' + item})
ON CREATE SET l.stage = $stage, l.item = item, l.owner = $owner, l.expires = 0
SET l._lock = true
WITH l, item, (l.owner = $owner OR l.expires < timestamp()) AS free
FOREACH (_ IN CASE WHEN free THEN [1] ELSE [] END |
  SET l.owner = $owner, l.expires = timestamp() + $ttl_ms, l.claimed_at = datetime())
REMOVE l._lock
RETURN item, free AS mine, l.owner AS owner
ORDER BY item
