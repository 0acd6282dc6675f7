"""Leases split work between workers on one graph: each item is claimed by exactly one worker,
a killed worker's claims expire, and two `seekgraph rollout` processes on one graph together
run every rollout exactly once."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import neo4j
import pytest

from seekgraph.graphdb.leases import Leases, list_leases
from seekgraph.graphdb.settings import ConnectionSettings
from tests.agent_fixture import load_fixture
from tests.conftest import REPO_ROOT, cli_login


def test_an_item_is_held_by_one_worker_until_released_or_expired(
    clean_db: neo4j.Driver, database: str | None
) -> None:
    a = Leases(clean_db, database, "demo", seconds=60)
    b = Leases(clean_db, database, "demo", seconds=60)
    assert a.claim(["x", "y"]) == ["x", "y"]
    assert b.claim(["x", "y", "z"]) == ["z"]
    assert a.claim(["x"]) == ["x"]  # a holder may renew
    a.release(["x"])
    assert b.claim(["x", "y"]) == ["x"]
    b.release(["y"])  # not b's: a keeps it
    assert b.claim(["y"]) == []
    other_stage = Leases(clean_db, database, "other", seconds=60)
    assert other_stage.claim(["x", "y"]) == ["x", "y"]
    rows = {(r["stage"], r["owner"]): r["n"] for r in list_leases(clean_db, database)}
    assert rows == {("demo", a.owner): 1, ("demo", b.owner): 2, ("other", other_stage.owner): 2}

    short = Leases(clean_db, database, "expiring", seconds=0.3)
    later = Leases(clean_db, database, "expiring", seconds=60)
    assert short.claim(["k"]) == ["k"]
    assert later.claim(["k"]) == []
    time.sleep(0.5)  # the holder died without releasing: its lease expires
    assert later.claim(["k"]) == ["k"]
    assert short.claim(["k"]) == []


def test_leases_of_a_killed_worker_on_this_host_are_freed_at_once(
    clean_db: neo4j.Driver, database: str | None
) -> None:
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        text=True,
        capture_output=True,
        check=True,
    )
    host = socket.gethostname()
    dead = Leases(clean_db, database, "demo", seconds=3600, owner=f"{host}:{gone.stdout.strip()}:x")
    alive = Leases(clean_db, database, "demo", seconds=3600, owner=f"{host}:{os.getpid()}:y")
    elsewhere = Leases(clean_db, database, "demo", seconds=3600, owner="another-host:1:z")
    assert dead.claim(["a"]) == ["a"] and alive.claim(["b"]) == ["b"]
    assert elsewhere.claim(["c"]) == ["c"]
    rerun = Leases(clean_db, database, "demo", seconds=3600)
    # the dead process's item is free; a live local worker and another host's keep theirs
    assert rerun.claim(["a", "b", "c"]) == ["a"]


def test_racing_workers_never_both_claim_an_item(
    clean_db: neo4j.Driver, database: str | None
) -> None:
    items = [f"item-{i}" for i in range(120)]
    workers = [Leases(clean_db, database, "race", seconds=60) for _ in range(4)]

    def walk(k: int) -> list[str]:
        order = items[k * 30 :] + items[: k * 30]  # each starts elsewhere, then meets the others
        return [i for i in order if workers[k].claim([i])]

    with ThreadPoolExecutor(max_workers=4) as pool:
        claimed = list(pool.map(walk, range(4)))
    assert sorted(i for part in claimed for i in part) == sorted(items)  # each exactly once
    assert all(part for part in claimed)


_SUMMARY = re.compile(r"rollout: kept (\d+), rejected (\d+), skipped \(already done\) (\d+)")


@pytest.mark.slow
def test_two_rollout_workers_run_every_rollout_exactly_once(
    clean_db: neo4j.Driver, database: str | None, neo4j_connection: ConnectionSettings, tmp_path
) -> None:
    load_fixture(clean_db, database)
    n = 40  # two tasks: 80 rollouts
    command = [sys.executable, "-m", "seekgraph", *cli_login(neo4j_connection), "rollout"]
    command += ["--n", str(n), "--concurrency", "1", "--detour-rate", "0.3"]
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    workers = [
        subprocess.Popen(
            [*command, "--out", str(tmp_path / str(i))],
            env=env,
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for i in range(2)
    ]
    outputs = [w.communicate(timeout=600)[0] for w in workers]
    assert [w.returncode for w in workers] == [0, 0], outputs
    ran = []
    for output in outputs:
        kept, rejected, skipped = (int(x) for x in _SUMMARY.search(output).groups())  # type: ignore[union-attr]
        assert kept + rejected + skipped == 2 * n, output
        ran.append(kept + rejected)
    assert sum(ran) == 2 * n, outputs  # nothing twice, nothing left out
    assert min(ran) > 0, outputs  # both did a share
    done = clean_db.execute_query(
        "MATCH (r:Rollout {status: 'done'}) RETURN count(r) AS n", database_=database
    ).records[0]["n"]
    assert done == 2 * n
    assert list_leases(clean_db, database, "rollout") == []  # all released
