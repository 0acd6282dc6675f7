"""The test servers' settings: wall time and CPU of one small build under each.

Most of the test suite's CPU is spent inside the Neo4j servers the tests start (the small
default build of the fault test: 38-47 CPU-seconds in the server, 13-15 in the pipeline). Each
case starts a private server the way the test session does (quick JIT tier, quick planning,
the fixtures' 512m heap), then builds the fault test's slice of the default data through every
stage up to pruning in a `seekgraph pipeline` process, and reads the server's CPU time from
/proc before and after. The cases alternate (reference, other, reference, other, ...) so a
noisy neighbour hurts both alike. Cases: Neo4j's own collector (G1), the tests' serial one,
and the tests' settings with plans kept (`tests/conftest.py` `KEPT_PLANS`: a query planned
once is not planned again as the graph grows). The first case named is the reference.

    .venv/bin/python -m bench.bench_test_server --repeat 2 --case tests --case kept-plans
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
import time
from pathlib import Path

from bench.common import Measurement, table, write_markdown
from seekgraph.graphdb import server
from seekgraph.graphdb.settings import ConnectionSettings
from tests.conftest import (
    KEPT_PLANS,
    PRODUCT_GC,
    QUICK_JIT,
    QUICK_PLANNING,
    SERIAL_GC,
    _installed_home,
)
from tests.scaffolding.small_default import pipeline_command, write_small_default

# case -> (name in the table, the collector, server settings beyond the quick planning)
CASES: dict[str, tuple[str, str, dict[str, str]]] = {
    "g1": ("G1 (Neo4j's default)", PRODUCT_GC, {}),
    "serial": ("serial GC", SERIAL_GC, {}),
    "tests": ("the tests' settings", SERIAL_GC, KEPT_PLANS),
    "replanning": ("the tests' with replanning", SERIAL_GC, {}),
}


def _server_cpu(home: Path) -> float:
    """CPU seconds (user + system) the server in `home` has used so far."""
    pid = int((home / "neo4j.pid").read_text())
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def build_once(gc_flag: str, config: dict[str, str], data: Path, work: Path) -> dict[str, float]:
    """Start a private test-like server with `gc_flag` and `config`, build `data` on it,
    stop it."""
    flags, extra = list(server.JVM_FLAGS), dict(server.EXTRA_CONFIG)
    server.JVM_FLAGS[:] = [gc_flag if f in (PRODUCT_GC, SERIAL_GC) else f for f in flags]
    if QUICK_JIT not in server.JVM_FLAGS:
        server.JVM_FLAGS.append(QUICK_JIT)
    for key in KEPT_PLANS:
        server.EXTRA_CONFIG.pop(key, None)
    server.EXTRA_CONFIG.update({**QUICK_PLANNING, **config})
    home = Path(tempfile.mkdtemp(dir=work))
    settings = server.private_server(
        _installed_home(), home, heap="512m", pagecache="256m", transaction_memory="256m"
    )
    try:
        server.start(settings)
        before = _server_cpu(home)
        password = settings.password_file.read_text().strip()
        connection = ConnectionSettings(settings.bolt_uri, "neo4j", password, None, True)
        command = pipeline_command(connection, data, home / "out")
        started, client_before = time.perf_counter(), os.times()
        done = subprocess.run(command, capture_output=True, text=True)
        seconds, client_after = time.perf_counter() - started, os.times()
        if done.returncode != 0:
            raise SystemExit(f"the build failed: {done.stderr[-2000:]}")
        server_cpu = _server_cpu(home) - before
    finally:
        server.stop(settings, timeout=30.0)
        server.JVM_FLAGS[:] = flags
        server.EXTRA_CONFIG.clear()
        server.EXTRA_CONFIG.update(extra)
    client_cpu = (client_after.children_user - client_before.children_user) + (
        client_after.children_system - client_before.children_system
    )
    return {"seconds": seconds, "server_cpu": server_cpu, "client_cpu": client_cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--markdown", type=Path, default=None)
    parser.add_argument(
        "--case", action="append", choices=sorted(CASES), help="(repeatable; default g1, tests)"
    )
    args = parser.parse_args()
    cases = {CASES[c][0]: CASES[c][1:] for c in args.case or ["g1", "tests"]}
    with tempfile.TemporaryDirectory(prefix="bench-test-server-") as tmp:
        work = Path(tmp)
        data = write_small_default(work / "data")
        rows = {case: Measurement(case) for case in cases}
        for _ in range(args.repeat):
            for case, (flag, config) in cases.items():
                result = build_once(flag, config, data, work)
                rows[case].seconds.append(result["seconds"])
                for key in ("server_cpu", "client_cpu"):
                    rows[case].extra.setdefault(key, []).append(result[key])
    reference = next(iter(cases))
    lines = table(list(rows.values()), reference, unit="builds")
    lines.append("")
    for case, row in rows.items():
        server_cpu = sorted(row.extra["server_cpu"])
        client_cpu = sorted(row.extra["client_cpu"])
        lines.append(
            f"{case:<40} server CPU s {', '.join(f'{c:.1f}' for c in server_cpu):<16} "
            f"pipeline CPU s {', '.join(f'{c:.1f}' for c in client_cpu)}"
        )
    print("\n".join(lines))
    if args.markdown:
        write_markdown(args.markdown, "Test servers: " + " vs ".join(cases), lines)


if __name__ == "__main__":
    main()
