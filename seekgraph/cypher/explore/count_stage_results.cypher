// Counts per stage (latest run) and rejections per stage and reason
MATCH (s:StageRun)
WITH s ORDER BY s.finished_at DESC
WITH s.stage AS stage, head(collect(s)) AS last
OPTIONAL MATCH (rej:Rejection {stage: stage})
WITH stage, last, rej.reason AS reason, count(rej) AS n
ORDER BY stage, n DESC
RETURN stage, last.kept AS kept, last.rejected AS rejected, last.skipped AS skipped,
       toString(last.finished_at) AS finished_at,
       collect(CASE WHEN reason IS NULL THEN NULL ELSE reason + '=' + toString(n) END) AS reasons
ORDER BY stage
