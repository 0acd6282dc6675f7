"""Run benchmark scripts (`bench/bench_*.py`) one after another and print a summary table.

Each script prints its own table (medians, ratios against a reference measured in the same
process) and writes its section of docs/benchmarks.md.

    .venv/bin/python -m bench.run                 # every benchmark, default sizes
    .venv/bin/python -m bench.run load bicliques  # only bench_load.py and bench_bicliques.py
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def discover(names: list[str]) -> list[str]:
    found = sorted(p.stem for p in HERE.glob("bench_*.py"))
    if not names:
        return found
    wanted = [n if n.startswith("bench_") else f"bench_{n}" for n in names]
    unknown = [w for w in wanted if w not in found]
    if unknown:
        raise SystemExit(f"unknown benchmark(s) {unknown}; available: {found}")
    return wanted


def main(argv: list[str]) -> int:
    results = []
    for name in discover(argv):
        print(f"\n=== {name}", flush=True)
        started = time.perf_counter()
        code = subprocess.call([sys.executable, "-m", f"bench.{name}"], cwd=HERE.parent)
        results.append((name, code, time.perf_counter() - started))
    print(f"\n{'benchmark':<28} {'exit':>4} {'seconds':>9}")
    for name, code, seconds in results:
        print(f"{name:<28} {code:>4} {seconds:>9.1f}")
    return max((code for _, code, _ in results), default=0)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
