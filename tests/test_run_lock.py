"""Runs side by side: stages that rewrite shared parts take the graph's run lock, so two
ingests of one folder end as one; a dead holder's lock is broken; a live holder stops a run
that will not wait with one line naming it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import neo4j
import pytest

from seekgraph.graphdb.errors import GraphDBError
from seekgraph.graphdb.run_lock import GraphLockedError, RunLock
from seekgraph.graphdb.settings import ConnectionSettings
from tests.conftest import REPO_ROOT, cli_login, wipe
from tests.scaffolding.fingerprint import difference, fingerprint
from tests.scaffolding.small_default import write_small_default


def _ingest(connection: ConnectionSettings, data: Path, cwd: Path, *extra: str) -> list[str]:
    """The command line of `seekgraph pipeline --only ingest` of `data`."""
    return [
        sys.executable,
        "-m",
        "seekgraph",
        *cli_login(connection),
        *extra,
        "pipeline",
        "--only",
        "ingest",
        "--data",
        str(data),
        "--out",
        str(cwd / "out"),
    ]


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO_ROOT)}


def _dead_pid() -> int:
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        text=True,
        capture_output=True,
        check=True,
    )
    return int(gone.stdout)


def _lock_nodes(driver: neo4j.Driver, database: str | None) -> int:
    records, _, _ = driver.execute_query(
        "MATCH (l:RunLock) RETURN count(l) AS n", database_=database
    )
    return int(records[0]["n"])


def test_two_ingests_side_by_side_end_as_one(
    clean_db: neo4j.Driver,
    database: str | None,
    neo4j_connection: ConnectionSettings,
    tmp_path: Path,
) -> None:
    data = write_small_default(tmp_path / "data")
    env = _env()
    alone = subprocess.run(
        _ingest(neo4j_connection, data, tmp_path / "alone"),
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert alone.returncode == 0, alone.stdout + alone.stderr
    expected = fingerprint(clean_db, database)
    wipe(clean_db, database)

    # this test holds the lock while both start, so both are waiting when it lets go; then
    # one takes it and ingests, and the other waits for that one
    me = RunLock(clean_db, database, "test", owner=f"{socket.gethostname()}:{os.getpid()}:t")
    me.acquire()
    runs = [
        subprocess.Popen(
            _ingest(neo4j_connection, data, tmp_path / name),
            env=env,
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for name in ("a", "b")
    ]
    outputs: list[list[str]] = [[], []]

    def read(i: int) -> None:
        assert runs[i].stdout is not None
        for line in runs[i].stdout:
            outputs[i].append(line)

    readers = [threading.Thread(target=read, args=(i,), daemon=True) for i in range(2)]
    for reader in readers:
        reader.start()
    waiting = "waiting for the graph lock held by stage test of pid"
    deadline = time.monotonic() + 180
    while not all(any(waiting in line for line in out) for out in outputs):
        assert time.monotonic() < deadline and all(r.poll() is None for r in runs), outputs
        time.sleep(0.1)
    me.release()
    for run, reader in zip(runs, readers, strict=True):
        run.wait(timeout=300)
        reader.join()
    said = ["".join(out) for out in outputs]
    assert [run.returncode for run in runs] == [0, 0], said
    second = [i for i in (0, 1) if f"held by stage ingest of pid {runs[1 - i].pid} " in said[i]]
    assert len(second) == 1, said  # exactly one waited for the other's ingest
    assert "took the graph lock after waiting" in said[second[0]]
    assert "ingest: kept 0, rejected 0" in said[second[0]]  # the first did it all
    assert "ingest: kept 0" not in said[1 - second[0]]
    assert difference(expected, fingerprint(clean_db, database)) == ""
    assert _lock_nodes(clean_db, database) == 0  # both released


def test_the_lock_of_a_dead_run_is_broken(clean_db: neo4j.Driver, database: str | None) -> None:
    said: list[str] = []
    host = socket.gethostname()
    dead = RunLock(clean_db, database, "ingest", owner=f"{host}:{_dead_pid()}:x")
    assert dead.try_acquire()["mine"]  # then its process ended without releasing
    live = RunLock(clean_db, database, "relations", wait_seconds=0, echo=said.append)
    with live.held():
        assert live.holder()["owner"] == live.owner  # type: ignore[index]
    assert len(said) == 1 and said[0].startswith("broke the graph lock of a dead run (stage ingest")
    assert said[0].endswith("its process is gone")
    assert live.holder() is None  # released

    # another host's run cannot be checked by pid: it is broken when its heartbeat stops
    elsewhere = RunLock(clean_db, database, "leaper-trees", owner="another-host:1:y")
    beat = time.monotonic()  # its one heartbeat: the lock is stale 1 s after it, not before
    assert elsewhere.try_acquire()["mine"]
    said.clear()
    patient = RunLock(
        clean_db, database, "ingest", wait_seconds=5, stale_seconds=1, echo=said.append
    )
    patient.acquire()
    assert time.monotonic() - beat > 0.9
    assert said[0].startswith("waiting for the graph lock held by stage leaper-trees of pid 1 ")
    assert "on host another-host" in said[1] and "no heartbeat for" in said[1]
    patient.release()


def test_a_held_lock_beats_and_is_released_after_an_error(
    clean_db: neo4j.Driver, database: str | None
) -> None:
    lock = RunLock(clean_db, database, "ingest", stale_seconds=1)
    other = RunLock(clean_db, database, "ingest", wait_seconds=0, stale_seconds=1)
    with pytest.raises(ZeroDivisionError), lock.held():
        time.sleep(1.5)  # longer than stale: only the heartbeat keeps it
        with pytest.raises(GraphLockedError):
            other.acquire()
        _ = 1 / 0
    assert lock.holder() is None
    other.acquire()
    other.release()


def test_a_live_holder_stops_a_run_that_will_not_wait_with_one_line(
    clean_db: neo4j.Driver,
    database: str | None,
    neo4j_connection: ConnectionSettings,
    tmp_path: Path,
) -> None:
    data = write_small_default(tmp_path / "data")
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        owner = f"{socket.gethostname()}:{holder.pid}:z"
        assert RunLock(clean_db, database, "relations", owner=owner).try_acquire()["mine"]
        config = tmp_path / "seekgraph.toml"
        config.write_text("[neo4j]\nlock_wait_seconds = 0\n")
        run = subprocess.run(
            _ingest(neo4j_connection, data, tmp_path, "--config", str(config)),
            env=_env(),
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
        )
    finally:
        holder.kill()
        holder.wait()
    assert run.returncode != 0
    errors = run.stderr.strip().splitlines()
    assert len(errors) == 1, run.stderr
    assert errors[0].startswith("Error: stage ingest failed: another run holds the graph: ")
    assert f"stage relations of pid {holder.pid} on host {socket.gethostname()} since " in errors[0]
    assert "[neo4j] lock_wait_seconds" in errors[0]
    records, _, _ = clean_db.execute_query("MATCH (t:Table) RETURN count(t) AS n")
    assert records[0]["n"] == 0  # nothing ingested
    assert issubclass(GraphLockedError, GraphDBError)
