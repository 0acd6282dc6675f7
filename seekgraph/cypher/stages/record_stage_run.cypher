MERGE (s:StageRun {run_id: $run_id})
SET s.stage = $stage, s.kept = $kept, s.rejected = $rejected, s.skipped = $skipped,
    s.reasons = $reasons, s.seconds = $seconds, s.notes_json = $notes_json,
    s.finished_at = datetime()
