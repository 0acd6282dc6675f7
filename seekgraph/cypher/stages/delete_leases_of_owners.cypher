// Free the leases of workers known to be gone (a killed process on this host), so a re-run
// takes their items at once instead of waiting for the leases to expire.
MATCH (l:Lease {stage: $stage})
WHERE l.owner IN $owners
DELETE l
