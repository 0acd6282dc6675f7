// Live and expired leases per stage and worker (`db status` of concurrent work)
MATCH (l:Lease)
WHERE $stage IS NULL OR l.stage = $stage
RETURN l.stage AS stage, l.owner AS owner, count(*) AS n,
       sum(CASE WHEN l.expires < timestamp() THEN 1 ELSE 0 END) AS expired
ORDER BY stage, owner
