"""The one contract every stage follows, and the bookkeeping of its runs in the graph.

A stage is a `Stage`: a name (which is also its command's name), a config dataclass, the config
section it reads, and ``run(ctx, config) -> StageReport``. The command line and the pipeline both
build the config with the one config loader and call the same object. A stage counts what it
kept, skipped (already done) and rejected, each rejection with a short reason code and a detail;
`save_report` writes the rejections as ``(:Rejection)`` nodes (keyed by stage and record, so a
re-run updates them) and the run as a ``(:StageRun)`` node. A stage must be idempotent and
resumable: re-running it after a kill adds nothing and repeats no finished work.
"""

from __future__ import annotations

import json
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TextIO, TypeVar

import neo4j

from seekgraph.graphdb import cypher
from seekgraph.graphdb.leases import worker_id
from seekgraph.graphdb.run_lock import RunLock

C = TypeVar("C")


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
    cleared: list[str] = field(default_factory=list)
    seconds: float = 0.0
    notes: dict[str, object] = field(default_factory=dict)
    saved: int = field(default=0, repr=False)  # rejections written by `save_rejections`
    _started: float = field(default_factory=time.perf_counter, repr=False)

    def keep(self, n: int = 1) -> None:
        self.kept += n

    def skip(self, n: int = 1) -> None:
        self.skipped += n

    def reject(self, record_id: str, reason: str, detail: str = "") -> None:
        self.rejections.append(Rejection(str(record_id), reason, detail[:2000]))

    def clear(self, record_id: str) -> None:
        """`record_id` was kept this time: its earlier rejection, those of its parts
        (``record_id#...``) and those of earlier contents at its place (``file:line@digest``)
        no longer hold and are removed when the report is saved."""
        self.cleared.append(str(record_id))

    def count(self, note: str, n: int = 1) -> None:
        """Add `n` to the integer note `note` (a counter shown in the summary)."""
        self.notes[note] = int(str(self.notes.get(note, 0))) + n

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


class Progress:
    """Progress of long work: a bar on a terminal, a line every `every` seconds in a log.

    A stage may spend minutes inside one item (a chunk of trajectories whose thoughts a model
    rewrites), so the bar does not wait for `update`: a daemon thread redraws it on a terminal
    every second and writes a line to a log every `every` seconds, elapsed time included, so a
    silent stage is a stuck one. Lines go only to `stream` (stderr), never into stage output.
    """

    def __init__(
        self, label: str, total: int | None, stream: TextIO | None = None, every: float = 10.0
    ) -> None:
        self.label = label
        self.total = total
        self.done = 0
        self.now = ""  # what the work is doing at the moment (`doing`), shown after the count
        self.stream = stream
        self.every = every
        self._tty = bool(stream is not None and stream.isatty())
        self._started = time.monotonic()
        self._last = self._started
        self._drawn = ""  # the last line written, so `close` does not repeat it
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if stream is not None:
            self._thread = threading.Thread(target=self._beat, name=f"progress {label}")
            self._thread.daemon = True
            self._thread.start()

    def update(self, n: int = 1) -> None:
        with self._lock:
            self.done += n
            if self.stream is None:
                return
            now = time.monotonic()
            if self._tty and now - self._last >= 0.2:
                self._draw("\r", "")
            elif not self._tty and now - self._last >= self.every:
                self._draw("", "\n")

    def doing(self, what: str) -> None:
        """Say what the work is busy with now ("rewriting the thoughts of rollout r-12"), so a
        log shows why the count stands still while one item takes minutes. An empty string
        clears it. The next heartbeat line carries it; nothing is written here."""
        with self._lock:
            self.now = " ".join(what.split())

    def _beat(self) -> None:
        """Redraw while the work runs, whether or not it reports (see the class docstring)."""
        period = 1.0 if self._tty else max(self.every, 0.1)
        while not self._stop.wait(min(period, 1.0)):
            with self._lock:
                if time.monotonic() - self._last >= period and self._line() != self._drawn:
                    self._draw("\r" if self._tty else "", "" if self._tty else "\n")

    def _line(self) -> str:
        elapsed = time.monotonic() - self._started
        now = f" - {self.now}" if self.now else ""
        if self.total:
            share = min(1.0, self.done / self.total)
            return f"{self.label}: {self.done}/{self.total} ({share:.0%}) {elapsed:.0f}s{now}"
        return f"{self.label}: {self.done} {elapsed:.0f}s{now}"

    def _draw(self, start: str, end: str) -> None:
        assert self.stream is not None
        line = self._line()
        self.stream.write(f"{start}{line}{end}")
        self.stream.flush()
        self._drawn, self._last = line, time.monotonic()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            if self.stream is None:
                return
            if self._tty:
                self._draw("\r", "\n")
            elif time.monotonic() - self._started >= 2.0 and self._line() != self._drawn:
                self._draw("", "\n")


@dataclass
class StageContext:
    """What a stage gets besides its config: the driver (owned by the CLI), where to write
    files, and where to say things."""

    driver: neo4j.Driver
    database: str | None = None
    out_dir: Path = Path("out")
    echo: Callable[[str], None] = print
    progress_stream: TextIO | None = field(default_factory=lambda: sys.stderr)
    progress_every: float = 10.0  # seconds between progress lines in a log
    lock_wait_seconds: float = 300.0  # how long a stage waits for another run's graph lock
    lock_stale_seconds: float = 300.0  # a lock without a heartbeat for this long is broken
    run_id: str = field(default_factory=worker_id)  # the owner of this run's locks

    @contextmanager
    def progress(self, label: str, total: int | None = None) -> Iterator[Progress]:
        bar = Progress(label, total, self.progress_stream, self.progress_every)
        try:
            yield bar
        finally:
            bar.close()


@dataclass(frozen=True)
class Stage(Generic[C]):
    """One stage: its name (= its command's name), config class, config section and work.

    `defaults` override the config class's defaults for this stage (two stages may share a
    class, e.g. `rollout` and `rollout-llm`); `optional` stages run in the pipeline only when
    asked for (`--with-training` or by name), `manual` ones only by name (they take hours).
    `locks_graph` stages rewrite parts every run shares (tables, relations, trees): they run
    holding the graph's run lock (`seekgraph.graphdb.run_lock`), so a second run waits.
    """

    name: str
    help: str
    config: type[C]
    section: str
    work: Callable[[StageContext, C], StageReport]
    optional: bool = False
    defaults: tuple[tuple[str, Any], ...] = ()
    manual: bool = False
    locks_graph: bool = False

    def run(self, ctx: StageContext, config: C) -> StageReport:
        """Run the stage (holding the run lock if `locks_graph`) and return its finished
        report (seconds set)."""
        if self.locks_graph:
            lock = RunLock(
                ctx.driver,
                ctx.database,
                self.name,
                wait_seconds=ctx.lock_wait_seconds,
                stale_seconds=ctx.lock_stale_seconds,
                echo=ctx.echo,
                owner=ctx.run_id,
            )
            with lock.held():
                report = self.work(ctx, config)
        else:
            report = self.work(ctx, config)
        if report.seconds == 0.0:
            report.finish()
        return report


def save_rejections(driver: neo4j.Driver, report: StageReport, database: str | None = None) -> None:
    """Write the rejections added since the last call (MERGE: again later is harmless).

    A stage whose resume marker for a record is written before the stage ends (e.g. a task
    saved per layer) calls this first, so a kill after the marker never loses the rejections
    that belong to the same record."""
    write_rejections(driver, report.stage, unsaved_rejections(report), database)


def unsaved_rejections(report: StageReport) -> list[Rejection]:
    """The rejections added since the last save, counted as saved from now on: the caller
    writes them (`write_rejections`), e.g. from a writer thread while the stage goes on."""
    rejections = report.rejections[report.saved :]
    report.saved = len(report.rejections)
    return rejections


def write_rejections(
    driver: neo4j.Driver, stage: str, rejections: list[Rejection], database: str | None = None
) -> None:
    """MERGE `rejections` of `stage` as ``(:Rejection)`` nodes."""
    rows = [
        {"stage": stage, "record_id": r.record_id, "reason": r.reason, "detail": r.detail}
        for r in rejections
    ]
    cypher.run_batches(driver, "stages/merge_rejections", rows, database=database)


def save_report(driver: neo4j.Driver, report: StageReport, database: str | None = None) -> None:
    """Write the report's rejections and a StageRun node; safe to call again after a crash.

    Rejections of records kept this time (`StageReport.clear`) are removed first, so
    `db rejects` and the stage's own counts agree."""
    cleared = [{"stage": report.stage, "record_id": r} for r in report.cleared]
    cypher.run_batches(driver, "stages/delete_cleared_rejections", cleared, database=database)
    write_rejections(driver, report.stage, report.rejections, database)  # all: clearing may hit
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
        notes_json=json.dumps(report.notes, sort_keys=True, default=str),
    )


def last_notes(driver: neo4j.Driver, stage: str, database: str | None = None) -> dict[str, Any]:
    """The notes of the latest run of `stage` ({} when it never ran)."""
    rows = cypher.read(driver, "stages/find_last_stage_notes", database=database, stage=stage)
    if not rows or not rows[0]["notes_json"]:
        return {}
    notes: dict[str, Any] = json.loads(rows[0]["notes_json"])
    return notes
