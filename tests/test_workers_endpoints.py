"""Past one machine: two rollout workers (`--shard 0/2`, `--shard 1/2`, separate processes, as a
Slurm array or a Kubernetes indexed Job starts them) against one Neo4j and a list of two REAL
OpenAI-compatible endpoints (`transformers serve`, the API `vllm serve` speaks)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import neo4j
import pytest

from seekgraph.graphdb.settings import ConnectionSettings
from tests.agent_fixture import load_fixture
from tests.conftest import REPO_ROOT, cli_login
from tests.scaffolding.serve import transformers_serve

pytestmark = pytest.mark.slow

N_TASKS = 6  # the fixture's two tasks and four copies of them, so each shard gets some


def _more_tasks(driver: neo4j.Driver, database: str | None) -> list[str]:
    """Copies of the fixture's tasks under new ids (their question and answer, their targets)."""
    driver.execute_query(
        "MATCH (t:Task) WITH t ORDER BY t.task_id WITH collect(t) AS tasks "
        "UNWIND range(0, $copies - 1) AS i WITH tasks[i % size(tasks)] AS t, i "
        "CREATE (c:Task {task_id: t.task_id + '-copy' + i}) "
        "SET c = t {.*, task_id: t.task_id + '-copy' + i} "
        "WITH t, c MATCH (t)-[r:TARGET]->(e) CREATE (c)-[:TARGET {role: r.role}]->(e)",
        copies=N_TASKS - 2,
        database_=database,
    )
    records = driver.execute_query(
        "MATCH (t:Task) RETURN t.task_id AS id ORDER BY id", database_=database
    ).records
    return [r["id"] for r in records]


def test_two_sharded_workers_on_two_endpoints_do_every_rollout_once(
    clean_db: neo4j.Driver,
    database: str | None,
    neo4j_connection: ConnectionSettings,
    smollm2_checkpoint: Path,
    tmp_path: Path,
) -> None:
    load_fixture(clean_db, database)
    task_ids = _more_tasks(clean_db, database)
    assert len(task_ids) == N_TASKS
    logs = [tmp_path / "serve-a.log", tmp_path / "serve-b.log"]
    with (
        transformers_serve(smollm2_checkpoint, logs[0], access_log=True) as url_a,
        transformers_serve(smollm2_checkpoint, logs[1], access_log=True) as url_b,
    ):
        # a generous timeout: on a busy CPU a queued request can wait minutes, and a client
        # that gives up and retries only queues the same work again
        backend = f"openai:{url_a},{url_b}#{smollm2_checkpoint}?timeout=900"
        workers = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "seekgraph",
                    *cli_login(neo4j_connection),
                    "rollout",
                    "--policy",
                    "llm",
                    "--backend",
                    backend,
                    "--shard",
                    f"{i}/2",
                    "--n",
                    "1",
                    "--max-rounds",
                    "1",
                    "--max-tokens",
                    "8",
                    "--concurrency",
                    "1",
                    "--out",
                    str(tmp_path / f"out-{i}"),
                ],
                cwd=REPO_ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            for i in range(2)
        ]
        outputs = [w.communicate(timeout=900)[0] for w in workers]
        assert [w.returncode for w in workers] == [0, 0], outputs
    rows = clean_db.execute_query(
        "MATCH (r:Rollout {policy: 'llm'}) RETURN r.task_id AS task, r.index AS i, "
        "r.shard AS shard, r.status AS status",
        database_=database,
    ).records
    done = sorted((r["task"], r["i"]) for r in rows)
    assert done == sorted((t, 0) for t in task_ids)  # each exactly once
    assert all(r["status"] == "done" for r in rows)
    assert {r["shard"] for r in rows} == {"0/2", "1/2"}  # both workers did some
    answered = [len(re.findall(r"POST /v1/chat/completions", log.read_text())) for log in logs]
    assert all(n > 0 for n in answered), answered  # both endpoints served requests
    assert sum(answered) >= len(done)
