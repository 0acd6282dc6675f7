"""Cost curves of the synthesis stages at 1x, 3x and 10x OTT-QA, and the growth exponent.

For each scale (`bench.scaled_corpus`: the real OTT-QA train tables and passages plus generated
copies of the same shape) a private Neo4j is loaded from empty and the WebLeaper stages run one
after another, each as its own `seekgraph` process, exactly as a user runs them:

    db load (bulk first load) | ingest (incremental) → relations → leaper-trees → leaper-basic
    → leaper-union → leaper-reverse

Per stage and scale: wall seconds, graph elements written per second, the peak resident memory
of the stage's process and of Neo4j (for the bulk load: its own peak before the import tool
starts, as the tool's JVM is a child of it). The growth exponent b fits seconds ≈ a · scale^b over the
scales measured (b = 1: linear; the projection to two million tables uses it).

    .venv/bin/python -m bench.bench_scale --scales 1 3 10 --work /tmp/scale
    .venv/bin/python -m bench.bench_scale --scales 1 --ingest ingest   # incremental first load
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from bench.common import write_markdown
from bench.scaled_corpus import write_scaled
from seekgraph.common.config import ConfigFile, resolve_settings
from seekgraph.graphdb import server
from seekgraph.graphdb.driver import open_driver
from seekgraph.graphdb.settings import ConnectionSettings, ServerSettings
from seekgraph.synth.ingest.tables import graph_counts

STAGES = ("relations", "leaper-trees", "leaper-basic", "leaper-union", "leaper-reverse")


@dataclass
class StageRun:
    stage: str
    scale: float
    seconds: float
    elements: int
    py_mib: float
    neo4j_mib: float
    lines: list[str] = field(default_factory=list)


def _tree_rss(proc: psutil.Process) -> float:
    total = 0
    for p in [proc, *proc.children(recursive=True)]:
        with contextlib.suppress(psutil.Error):
            total += p.memory_info().rss
    return total / 2**20


def run_measured(
    command: list[str], neo4j_pid: int | None, log: Path
) -> tuple[float, float, float]:
    """Run `command`; (seconds, its peak RSS MiB with children, Neo4j's peak RSS MiB)."""
    peaks = {"py": 0.0, "db": 0.0}
    with log.open("a") as out:
        out.write(f"$ {' '.join(command)}\n")
        out.flush()
        started = time.perf_counter()
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        watched = psutil.Process(proc.pid)
        stop = threading.Event()

        def sample() -> None:
            while not stop.is_set():
                try:
                    peaks["py"] = max(peaks["py"], _tree_rss(watched))
                    if neo4j_pid:
                        peaks["db"] = max(
                            peaks["db"], psutil.Process(neo4j_pid).memory_info().rss / 2**20
                        )
                except psutil.Error:
                    pass
                stop.wait(0.5)

        thread = threading.Thread(target=sample, daemon=True)
        thread.start()
        code = proc.wait()
        stop.set()
        thread.join()
        seconds = time.perf_counter() - started
    if code != 0:
        raise SystemExit(f"{' '.join(command[-4:])} exited {code}; see {log}")
    return seconds, peaks["py"], peaks["db"]


def _logged_build_peak(log: Path) -> float | None:
    """The bulk load's own peak MiB before the import tool started, from its last report."""
    marker = "peak MiB before the import tool:"
    found = [line for line in log.read_text().splitlines() if marker in line]
    return float(found[-1].split(marker)[1]) if found else None


def _neo4j_pid(settings: ServerSettings) -> int | None:
    pid_file = settings.home / "neo4j.pid"
    return int(pid_file.read_text()) if pid_file.exists() else None


def _elements(settings: ServerSettings) -> int:
    password = settings.password_file.read_text().strip()
    connection = ConnectionSettings(settings.bolt_uri, "neo4j", password, None, True)
    with open_driver(connection) as driver:
        counts = graph_counts(driver)
    return sum(n for kind, n in counts.items() if kind not in ("node:StageRun", "node:Rejection"))


def run_scale(
    scale: float, work: Path, ingest: str, heap: str, pagecache: str, stages: tuple[str, ...]
) -> list[StageRun]:
    """Every stage at one scale on a server of its own (removed afterwards)."""
    tag = f"{scale:g}x"  # in the names of this scale's files
    data = work / f"data-{tag}"
    n_tables, n_passages = write_scaled(scale, data)
    home = work / f"neo4j-{tag}"
    shutil.rmtree(home, ignore_errors=True)
    installed = resolve_settings(ConfigFile(), env={}).server
    settings = server.private_server(
        installed, home, heap=heap, pagecache=pagecache, transaction_memory=heap
    )
    config = work / f"seekgraph-{tag}.toml"
    config.write_text(
        "[server]\n"
        f'heap = "{heap}"\npagecache = "{pagecache}"\ntransaction_memory = "{heap}"\n'
        f"bolt_port = {settings.bolt_port}\nhttp_port = {settings.http_port}\n"
    )
    log = work / f"log-{tag}.txt"
    base = [sys.executable, "-m", "seekgraph", "--config", str(config), "--neo4j-home", str(home)]
    out = ["--out", str(work / f"out-{tag}")]
    runs: list[StageRun] = []
    server.start(settings)
    try:
        first = (
            [*base, "db", "load", "--data", str(data), *out]
            if ingest == "load"
            else [*base, "ingest", "--data", str(data)]
        )
        commands = [(f"{ingest} ({n_tables:,} tables, {n_passages:,} pages)", first)]
        commands += [(s, [*base, s, *out]) for s in stages if s != "relations"]
        if "relations" in stages:
            commands.insert(1, ("relations", [*base, "relations"]))
        before = 0
        for name, command in commands:
            seconds, py_mib, db_mib = run_measured(command, _neo4j_pid(settings), log)
            if command is first and ingest == "load":
                # the process tree's peak is the import tool's JVM; the build's own is logged
                py_mib = _logged_build_peak(log) or py_mib
            after = _elements(settings)
            runs.append(StageRun(name, scale, seconds, after - before, py_mib, db_mib))
            print(
                f"{tag} {name:<40} {seconds:8.1f} s {after - before:>11,} elements "
                f"py {py_mib:6.0f} MiB neo4j {db_mib:6.0f} MiB",
                flush=True,
            )
            before = after
    finally:
        server.stop(settings, timeout=120)
        shutil.rmtree(home, ignore_errors=True)
    return runs


def exponent(points: list[tuple[float, float]]) -> float:
    """b of the least-squares fit log y = a + b log x (nan with fewer than two scales)."""
    if len(points) < 2 or any(y <= 0 for _, y in points):
        return float("nan")
    xs = [math.log(x) for x, _ in points]
    ys = [math.log(y) for _, y in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / den


def report(runs: list[StageRun], scales: list[float]) -> list[str]:
    """One row per stage: seconds, elements/s and peak memory per scale, the exponent b."""
    stages = list(dict.fromkeys(r.stage.split(" (")[0] for r in runs))
    cells = " ".join(f"{f'{s:g}x s':>9} {f'{s:g}x el/s':>10} {f'{s:g}x MiB':>9}" for s in scales)
    head = f"{'stage':<16} {cells} {'b (time)':>8} {'b (mem)':>8}"
    lines = [head, "-" * len(head)]
    total: dict[float, float] = {}
    for stage in stages:
        by_scale = {r.scale: r for r in runs if r.stage.split(" (")[0] == stage}
        row = f"{stage:<16}"
        for s in scales:
            r = by_scale.get(s)
            if r is None:
                row += f" {'-':>9} {'-':>10} {'-':>9}"
                continue
            total[s] = total.get(s, 0.0) + r.seconds
            rate = r.elements / r.seconds if r.seconds > 0 else 0.0
            row += f" {r.seconds:>9.1f} {rate:>10,.0f} {max(r.py_mib, 0):>9,.0f}"
        b_time = exponent([(s, r.seconds) for s, r in by_scale.items()])
        b_mem = exponent([(s, r.py_mib) for s, r in by_scale.items()])
        lines.append(f"{row} {b_time:>8.2f} {b_mem:>8.2f}")
    row = f"{'all stages':<16}"
    for s in scales:
        row += f" {total.get(s, 0.0):>9.1f} {'':>10} {'':>9}"
    b_total = exponent(sorted(total.items()))
    lines.append(f"{row} {b_total:>8.2f}")
    neo = {s: max(r.neo4j_mib for r in runs if r.scale == s) for s in scales}
    lines.append(
        "Neo4j peak RSS: " + ", ".join(f"{s:g}x {neo[s]:,.0f} MiB" for s in scales if neo.get(s))
    )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scales", type=float, nargs="+", default=[1, 3, 10])
    parser.add_argument("--work", type=Path, default=Path("/tmp/seekgraph-scale"))
    parser.add_argument("--ingest", choices=("load", "ingest"), default="load")
    parser.add_argument("--heap", default="3g")
    parser.add_argument("--pagecache", default="3g")
    parser.add_argument("--stages", nargs="+", default=list(STAGES), choices=STAGES)
    parser.add_argument("--no-markdown", action="store_true")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    runs: list[StageRun] = []
    for scale in args.scales:
        runs += run_scale(
            scale, args.work, args.ingest, args.heap, args.pagecache, tuple(args.stages)
        )
    lines = report(runs, args.scales)
    print("\n".join(lines))
    if not args.no_markdown:
        shown = " ".join(f"{s:g}" for s in args.scales)
        write_markdown(
            Path("docs/benchmarks.md"),
            "Cost curves: the WebLeaper stages at several sizes of OTT-QA (issue 18)",
            lines,
            note=f"`python -m bench.bench_scale --scales {shown} "
            f"--ingest {args.ingest}` (heap {args.heap}, page cache {args.pagecache}); "
            "each stage a `seekgraph` process on a private server loaded from empty; copies "
            "of the corpus from `bench/scaled_corpus.py`; b: exponent of seconds (or peak "
            "memory) ≈ a · scale^b.",
        )


if __name__ == "__main__":
    main()
