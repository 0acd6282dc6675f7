// The notes of the latest run of one stage (e.g. the filter's thresholds), or no row
MATCH (s:StageRun {stage: $stage})
RETURN s.notes_json AS notes_json
ORDER BY s.finished_at DESC
LIMIT 1
