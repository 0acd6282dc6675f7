"""The one contract every batch stage follows: count what it kept, skipped and rejected (with why).

A stage function returns a `StageReport`; rejected records are written as `(:Rejection)` nodes
(keyed by stage and record id, so a re-run updates instead of duplicating) and the run itself
as a `(:StageRun)` node. The CLI prints `StageReport.summary_lines()` at the end of a stage.
"""

from __future__ import annotations

import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

import neo4j

from graphdb import cypher


@dataclass
class Rejection:
    record_id: str
    reason: str
    detail: str = ""


@dataclass
class StageReport:
    """What one stage did; `reasons` counts rejections by their short reason code."""

    stage: str
    kept: int = 0
    skipped: int = 0
    rejections: list[Rejection] = field(default_factory=list)
    seconds: float = 0.0
    notes: dict[str, object] = field(default_factory=dict)
    _started: float = field(default_factory=time.perf_counter, repr=False)

    def keep(self, n: int = 1) -> None:
        self.kept += n

    def skip(self, n: int = 1) -> None:
        self.skipped += n

    def reject(self, record_id: str, reason: str, detail: str = "") -> None:
        self.rejections.append(Rejection(str(record_id), reason, detail[:2000]))

    @property
    def rejected(self) -> int:
        return len(self.rejections)

    @property
    def reasons(self) -> Counter[str]:
        return Counter(r.reason for r in self.rejections)

    def finish(self) -> StageReport:
        self.seconds = time.perf_counter() - self._started
        return self

    def summary_lines(self) -> list[str]:
        head = (
            f"{self.stage}: kept {self.kept}, rejected {self.rejected}, "
            f"skipped (already done) {self.skipped} in {self.seconds:.1f}s"
        )
        lines = [head]
        lines += [f"  rejected {n:>6}  {reason}" for reason, n in self.reasons.most_common()]
        lines += [f"  {key}: {value}" for key, value in self.notes.items()]
        return lines


def save_report(driver: neo4j.Driver, report: StageReport, database: str | None = None) -> None:
    """Write the report's rejections and a StageRun node; safe to call again after a crash."""
    rows = [
        {"stage": report.stage, "record_id": r.record_id, "reason": r.reason, "detail": r.detail}
        for r in report.rejections
    ]
    cypher.run_batches(driver, "stages/merge_rejections", rows, database=database)
    reasons = [f"{reason}={n}" for reason, n in report.reasons.most_common()]
    cypher.write(
        driver,
        "stages/record_stage_run",
        database=database,
        run_id=f"{report.stage}:{uuid.uuid4().hex[:12]}",
        stage=report.stage,
        kept=report.kept,
        rejected=report.rejected,
        skipped=report.skipped,
        reasons=reasons,
        seconds=round(report.seconds, 3),
    )
