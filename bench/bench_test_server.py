"""The test servers' Java settings: wall time and CPU of one small build, G1 vs the serial GC.

Most of the test suite's CPU is spent inside the Neo4j servers the tests start (the small
default build of the fault test: 38-47 CPU-seconds in the server, 13-15 in the pipeline). Each
case starts a private server the way the test session does (quick JIT tier, quick planning,
the fixtures' 512m heap), then builds the fault test's slice of the default data through every
stage up to pruning in a `seekgraph pipeline` process, and reads the server's CPU time from
/proc before and after. The cases alternate (reference, other, reference, other, ...) so a
noisy neighbour hurts both alike. The reference is Neo4j's own choice, G1.

    .venv/bin/python -m bench.bench_test_server --repeat 2
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
import time
from pathlib import Path

from bench.common import Measurement, table, write_markdown
from seekgraph.graphdb import server, server_files
from seekgraph.graphdb.settings import ConnectionSettings
from tests.conftest import PRODUCT_GC, QUICK_JIT, QUICK_PLANNING, SERIAL_GC, _installed_home
from tests.scaffolding.small_default import pipeline_command, write_small_default

CASES = {"G1 (Neo4j's default)": PRODUCT_GC, "serial GC (the tests')": SERIAL_GC}


def _server_cpu(home: Path) -> float:
    """CPU seconds (user + system) the server in `home` has used so far."""
    pid = int((home / "neo4j.pid").read_text())
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def build_once(gc_flag: str, data: Path, work: Path) -> dict[str, float]:
    """Start a private test-like server with `gc_flag`, build `data` on it, stop it."""
    flags = list(server.JVM_FLAGS)
    server.JVM_FLAGS[:] = [gc_flag if f in (PRODUCT_GC, SERIAL_GC) else f for f in flags]
    if QUICK_JIT not in server.JVM_FLAGS:
        server.JVM_FLAGS.append(QUICK_JIT)
    server_files.EXTRA_CONFIG.update(QUICK_PLANNING)
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
    client_cpu = (client_after.children_user - client_before.children_user) + (
        client_after.children_system - client_before.children_system
    )
    return {"seconds": seconds, "server_cpu": server_cpu, "client_cpu": client_cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--markdown", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-test-server-") as tmp:
        work = Path(tmp)
        data = write_small_default(work / "data")
        rows = {case: Measurement(case) for case in CASES}
        for _ in range(args.repeat):
            for case, flag in CASES.items():
                result = build_once(flag, data, work)
                rows[case].seconds.append(result["seconds"])
                for key in ("server_cpu", "client_cpu"):
                    rows[case].extra.setdefault(key, []).append(result[key])
    reference = next(iter(CASES))
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
        write_markdown(args.markdown, "Test servers: G1 vs serial GC", lines)


if __name__ == "__main__":
    main()
