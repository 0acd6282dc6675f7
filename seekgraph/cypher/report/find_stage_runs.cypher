// Per stage: its latest run and its latest run that kept something. The report draws the
// latter (a re-run that skips finished work, or a bad input, must not make a stage look empty)
// and says when a later run kept nothing.
MATCH (s:StageRun)
WITH s ORDER BY s.finished_at DESC
WITH s.stage AS stage, collect(s) AS runs
WITH stage, head(runs) AS last, head([r IN runs WHERE r.kept > 0]) AS good
RETURN stage,
       toString(last.finished_at) AS last_at, last.kept AS last_kept,
       last.rejected AS last_rejected, last.skipped AS last_skipped,
       good IS NOT NULL AS has_good,
       coalesce(good.kept, last.kept) AS kept, coalesce(good.rejected, last.rejected) AS rejected,
       toString(coalesce(good.finished_at, last.finished_at)) AS finished_at,
       coalesce(good.seconds, last.seconds) AS seconds
ORDER BY stage
