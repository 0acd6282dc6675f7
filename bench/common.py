"""Helpers every benchmark script uses: timing with medians, peak memory, and table printing.

A benchmark script measures each case several times in one process, names one case the
reference, and prints a table with the median, the spread and the ratio to the reference.
"""

from __future__ import annotations

import gc
import os
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil


@dataclass
class Measurement:
    case: str
    seconds: list[float] = field(default_factory=list)
    items: int = 0  # rows/nodes/tasks processed per run, for a throughput column
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def spread(self) -> float:
        return (max(self.seconds) - min(self.seconds)) if len(self.seconds) > 1 else 0.0

    @property
    def rate(self) -> float:
        return self.items / self.median if self.median > 0 else float("nan")


def measure(
    case: str,
    fn: Callable[[], int | None],
    *,
    repeat: int = 3,
    setup: Callable[[], None] | None = None,
) -> Measurement:
    """Run `setup` then time `fn` `repeat` times; `fn` may return the number of items it did."""
    result = Measurement(case)
    for _ in range(repeat):
        if setup is not None:
            setup()
        gc.collect()
        start = time.perf_counter()
        items = fn()
        result.seconds.append(time.perf_counter() - start)
        if items is not None:
            result.items = int(items)
    return result


def rss_mib(pid: int | None = None) -> float:
    """Resident memory of a process (this one by default) in MiB."""
    return psutil.Process(pid or os.getpid()).memory_info().rss / 2**20


@contextmanager
def peak_rss(pid: int | None = None, interval: float = 0.05) -> Iterator[dict[str, float]]:
    """Sample a process's RSS in a thread while the block runs; yields {'peak_mib': ...}."""
    import threading

    out = {"peak_mib": rss_mib(pid)}
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            try:
                out["peak_mib"] = max(out["peak_mib"], rss_mib(pid))
            except psutil.Error:
                return
            stop.wait(interval)

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        yield out
    finally:
        stop.set()
        thread.join()


def table(rows: Sequence[Measurement], reference: str, unit: str = "items") -> list[str]:
    """Lines of a fixed-width table: case, runs, median, spread, rate, ratio to `reference`."""
    ref = next((r for r in rows if r.case == reference), None)
    head = (
        f"{'case':<40} {'runs':>4} {'median s':>10} {'spread s':>9} "
        f"{unit + '/s':>14} {'vs ' + reference:>16}"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        ratio = (ref.median / r.median) if ref and r.median > 0 else float("nan")
        lines.append(
            f"{r.case:<40} {len(r.seconds):>4} {r.median:>10.3f} {r.spread:>9.3f} "
            f"{r.rate:>14,.0f} {ratio:>15.2f}x"
        )
    return lines


def write_markdown(path: Path, title: str, lines: list[str], note: str = "") -> None:
    """Append (or replace) a section `## title` in a markdown file with the table in a code block."""
    text = path.read_text() if path.exists() else "# Benchmarks\n"
    marker = f"\n## {title}\n"
    if marker in text:
        start = text.index(marker)
        nxt = text.find("\n## ", start + len(marker))
        text = text[:start] + (text[nxt:] if nxt != -1 else "\n")
    section = marker + (note + "\n\n" if note else "\n") + "```\n" + "\n".join(lines) + "\n```\n"
    path.write_text(text.rstrip("\n") + "\n" + section)
