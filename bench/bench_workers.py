"""Concurrent rollout workers on one graph: the wall time of the same teacher rollouts done by
one `seekgraph rollout` process and by two at once (they split the work through leases).

Runs against the managed server (or the one in $NEO4J_URI), which must hold tasks (e.g. after
`make run`). The bench's rollouts use their own detour rate (model ``teacher-d0.25``) and are
deleted before each measured run; a first unmeasured run fills the tool-call cache, so every
measured run answers the same tool calls from it.

    .venv/bin/python -m bench.bench_workers --tasks 60 -n 3 --repeat 2
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

from bench.common import Measurement, table, write_markdown
from seekgraph.common.config import ConfigFile, resolve_settings
from seekgraph.graphdb import cypher
from seekgraph.graphdb.driver import open_driver

MODEL = "teacher-d0.25"
_SUMMARY = re.compile(r"rollout: kept (\d+), rejected (\d+)")


def run_workers(workers: int, args: argparse.Namespace, out: Path) -> tuple[float, list[int]]:
    """Start `workers` rollout processes at once; wall seconds and rollouts each one ran."""
    command = [sys.executable, "-m", "seekgraph", "rollout", "--detour-rate", "0.25"]
    command += ["--n", str(args.n), "--limit", str(args.tasks), "--concurrency", str(args.threads)]
    started = time.perf_counter()
    procs = [
        subprocess.Popen(
            [*command, "--out", str(out / f"w{i}")],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        for i in range(workers)
    ]
    outputs = [p.communicate()[0] for p in procs]
    seconds = time.perf_counter() - started
    ran = []
    for p, text in zip(procs, outputs, strict=True):
        found = _SUMMARY.search(text)
        if p.returncode != 0 or found is None:
            raise SystemExit(f"a worker failed (exit {p.returncode}):\n{text[-2000:]}")
        ran.append(int(found.group(1)) + int(found.group(2)))
    return seconds, ran


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tasks", type=int, default=60)
    parser.add_argument("-n", type=int, default=3, help="rollouts per task")
    parser.add_argument("--threads", type=int, default=2, help="rollout threads per worker")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("out/bench_workers"))
    args = parser.parse_args()
    driver = open_driver(resolve_settings(ConfigFile()).connection)

    def reset() -> None:
        cypher.write(driver, "bench/delete_model_rollouts", model=MODEL)

    reset()
    run_workers(1, args, args.out)  # fills the tool-call cache
    rows = [Measurement("1 worker"), Measurement("2 workers")]
    shares: list[str] = []
    for _ in range(args.repeat):
        for workers, row in ((1, rows[0]), (2, rows[1])):
            reset()
            seconds, ran = run_workers(workers, args, args.out)
            row.seconds.append(seconds)
            row.items = sum(ran)
            shares.append(f"{workers} worker(s): {seconds:.1f}s, rollouts per worker {ran}")
    reset()
    lines = table(rows, "1 worker", unit="rollouts")
    lines += ["", *shares]
    for line in lines:
        print(line)
    write_markdown(
        Path("docs/benchmarks.md"),
        "Concurrent rollout workers",
        lines,
        note=f"- {args.tasks} tasks x {args.n} teacher rollouts, {args.threads} threads per "
        "worker, tool calls from the cache; a worker's time includes its start (Python "
        "imports, driver). The ratio column is the speed-up over one worker.",
    )


if __name__ == "__main__":
    main()
