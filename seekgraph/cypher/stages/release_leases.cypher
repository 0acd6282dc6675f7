// A worker is done with its items (finished or failed): its leases go; others' stay.
UNWIND $keys AS item
MATCH (l:Lease {key: $stage + '|' + item})
WHERE l.owner = $owner
DELETE l
