"""The same input gives the same graph, also after faults.

The default data is built from empty, through synthesis, rollouts, scoring, filtering and
pruning, by `seekgraph pipeline` processes:
- twice, with different hash seeds (so set and dict order may differ): identical fingerprints;
- once more on a server of its own, with the worker killed (``kill -9``) and Neo4j killed at
  several points of several stages, each fault followed by a plain re-run of the pipeline:
  the fingerprint equals the uninterrupted build's.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import neo4j
import pytest

from seekgraph.cli.pipeline import STAGES as PIPELINE
from seekgraph.graphdb import server
from seekgraph.graphdb.driver import open_driver
from seekgraph.graphdb.settings import ConnectionSettings, ServerSettings
from tests.conftest import cli_login, wipe
from tests.scaffolding.fingerprint import Fingerprint, difference, fingerprint
from tests.scaffolding.servers import own_server as _own_server

# every default stage up to and including pruning, in pipeline order
_DEFAULT = [stage.name for stage in PIPELINE if not stage.optional]
STAGES = _DEFAULT[: _DEFAULT.index("prune") + 1]


def empty(driver: neo4j.Driver, database: str | None) -> None:
    """As empty as a new database: no nodes, and no full-text or vector index (Lucene keeps
    the term statistics of deleted documents, which would change search scores)."""
    wipe(driver, database)
    indexes = driver.execute_query(
        "SHOW INDEXES YIELD name, type WHERE type IN ['FULLTEXT', 'VECTOR'] RETURN name",
        database_=database,
    ).records
    for record in indexes:
        driver.execute_query(f"DROP INDEX `{record['name']}`", database_=database)


def pipeline_command(connection: ConnectionSettings, out: Path) -> list[str]:
    """`seekgraph pipeline` through the default stages up to pruning, writing under `out`."""
    config = out / "seekgraph.toml"
    out.mkdir(parents=True, exist_ok=True)
    # rewriting thoughts runs a model; its choice is tested apart. The rollouts' date is
    # pinned: the builds compared may straddle midnight. A killed Neo4j stops the worker after
    # a few seconds of retries instead of the driver's 30
    config.write_text(
        '[neo4j]\nretry_seconds = 3\n\n[rollout]\ndate = "2026-01-15"\n\n'
        "[prune]\nrewrite_limit = 0\n"
    )
    only = [arg for stage in STAGES for arg in ("--only", stage)]
    command = [sys.executable, "-m", "seekgraph", "--config", str(config), *cli_login(connection)]
    return [*command, "pipeline", "--out", str(out), *only]


def build(connection: ConnectionSettings, out: Path, hash_seed: str) -> None:
    """One uninterrupted build in its own process."""
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        pipeline_command(connection, out), env=env, capture_output=True, text=True, timeout=1200
    )
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.fixture(scope="module")
def reference(
    driver: neo4j.Driver, neo4j_connection: ConnectionSettings, tmp_path_factory
) -> Fingerprint:
    """The fingerprint of one uninterrupted build from empty."""
    database = neo4j_connection.database
    empty(driver, database)
    build(neo4j_connection, tmp_path_factory.mktemp("reference"), hash_seed="1")
    return fingerprint(driver, database)


def assert_same_graph(driver: neo4j.Driver, database: str | None, expected: Fingerprint) -> None:
    assert sum(expected.nodes.values()) > 1000
    differs = difference(expected, fingerprint(driver, database))
    if differs:
        pytest.fail(f"the graphs differ:\n{differs}", pytrace=False)


@pytest.mark.slow
def test_two_fresh_builds_are_identical(
    reference: Fingerprint,
    clean_db: neo4j.Driver,
    database: str | None,
    neo4j_connection: ConnectionSettings,
    tmp_path: Path,
) -> None:
    empty(clean_db, database)
    build(neo4j_connection, tmp_path / "b", hash_seed="2")
    assert_same_graph(clean_db, database, reference)


# --- faults ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fault:
    """Kill `victim` ("worker" or "neo4j") once `query` counts at least `at` (polled), which
    happens while `stage` runs (or, when the stage is quicker than the poll, in a later one)."""

    victim: str
    stage: str
    query: str
    at: int


FAULTS = [
    Fault("worker", "ingest", "MATCH (p:Page) RETURN count(p)", 40),
    Fault("worker", "leaper-trees", "MATCH (t:Tree) RETURN count(t)", 2),
    Fault("neo4j", "shaper-expand", "MATCH (v:Variable) RETURN count(v)", 40),
    Fault("worker", "rollout", "MATCH (r:Rollout {status: 'done'}) RETURN count(r)", 20),
    Fault("neo4j", "rollout", "MATCH (r:Rollout {status: 'done'}) RETURN count(r)", 80),
    Fault("worker", "prune", "MATCH (g:StateGraph) RETURN count(g)", 60),
    Fault("neo4j", "prune", "MATCH (g:StateGraph) RETURN count(g)", 240),
]


@pytest.fixture(scope="module")
def own_server(tmp_path_factory) -> Iterator[ServerSettings]:
    """A server only the fault test uses (it is killed and restarted)."""
    with _own_server(tmp_path_factory.mktemp("fault-neo4j")) as settings:
        yield settings


def _count(driver: neo4j.Driver, query: str) -> int:
    try:
        return int(driver.execute_query(query).records[0][0])
    except neo4j.exceptions.Neo4jError:
        return 0
    except neo4j.exceptions.DriverError:
        return 0


def _stage_runs(driver: neo4j.Driver) -> Counter:
    rows = driver.execute_query("MATCH (s:StageRun) RETURN s.stage AS stage").records
    return Counter(r["stage"] for r in rows)


def _running_stage(before: Counter, after: Counter) -> str:
    """The stage a killed pass was in: the first one it did not finish."""
    return next((s for s in STAGES if after[s] <= before[s]), "(after the last stage)")


@pytest.mark.slow
def test_kills_of_worker_and_neo4j_then_resume_give_the_same_graph(
    reference: Fingerprint, own_server: ServerSettings, tmp_path: Path
) -> None:
    password = own_server.password_file.read_text().strip()
    connection = ConnectionSettings(own_server.bolt_uri, "neo4j", password, None, managed=True)
    driver = open_driver(connection)
    command = pipeline_command(connection, tmp_path / "out")
    outcomes: list[str] = []
    hit: set[str] = set()
    try:
        for fault in FAULTS:
            runs_before = _stage_runs(driver)
            worker = subprocess.Popen(
                command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
            )
            deadline = time.monotonic() + 600
            while _count(driver, fault.query) < fault.at:
                assert worker.poll() is None, f"{fault}: the pipeline ended before the fault"
                assert time.monotonic() < deadline, f"{fault}: not reached in 600 s"
                time.sleep(0.05)
            if fault.victim == "worker":
                worker.send_signal(signal.SIGKILL)
                worker.wait()
                stage = _running_stage(runs_before, _stage_runs(driver))
                outcome = "killed"
            else:
                pid = int((own_server.home / "neo4j.pid").read_text())
                os.kill(pid, signal.SIGKILL)
                stderr = worker.communicate(timeout=300)[1]
                last = stderr.strip().splitlines()[-1] if stderr.strip() else ""
                # the worker gives up after bounded retries with one line, no traceback
                assert worker.returncode != 0 and last.startswith("Error:"), stderr[-3000:]
                assert "Traceback" not in stderr, stderr[-3000:]
                server.start(own_server)
                stage = _running_stage(runs_before, _stage_runs(driver))
                outcome = f"worker exited {worker.returncode}: {last[:90]}"
            # a fast stage can end between two polls: the kill then lands in a later stage
            assert stage in STAGES[STAGES.index(fault.stage) :], f"{fault} hit {stage}"
            hit.add(stage)
            outcomes.append(f"kill -9 {fault.victim:<6} in {stage:<14} -> {outcome}")
        assert len(hit) >= 3, f"the faults hit only {sorted(hit)}"
        resumed = subprocess.run(command, capture_output=True, text=True, timeout=1200)
        assert resumed.returncode == 0, resumed.stderr[-3000:]
        print("\n".join(["fault suite:", *outcomes, "resume -> same fingerprint"]))
        assert_same_graph(driver, None, reference)
    finally:
        driver.close()
