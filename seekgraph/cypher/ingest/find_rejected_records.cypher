// The ingest stage's current rejections (a record kept now at the same place clears one).
MATCH (r:Rejection {stage: 'ingest'})
RETURN r.record_id AS record_id
