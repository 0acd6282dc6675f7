// A record kept this time: its earlier rejection, those of its parts (`id#...`) and those of
// earlier contents at its place (`file:line@digest`) go.
UNWIND $rows AS row
MATCH (r:Rejection)
WHERE r.rejection_id STARTS WITH row.stage + ':' + row.record_id
  AND (r.record_id = row.record_id OR r.record_id STARTS WITH row.record_id + '#'
       OR r.record_id STARTS WITH row.record_id + '@')
DELETE r
