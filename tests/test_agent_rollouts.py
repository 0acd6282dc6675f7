"""Scripted rollouts: the gold walker's plans and recorded detours, resumability after a kill,
shards, export, CLI (the question-only teacher has its own tests in test_agent_teacher.py)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time

import neo4j
import pytest
from click.testing import CliRunner

from seekgraph.agent.export import export_jsonl
from seekgraph.agent.gold_walker import GoldWalkerPolicy
from seekgraph.agent.rollouts import (
    ShardError,
    TeacherRollouts,
    in_shard,
    load_tasks,
    parse_shard,
    run_rollouts,
    unavailable_tasks,
)
from seekgraph.agent.scoring import score_rollouts
from seekgraph.agent.teacher import TeacherConfig
from seekgraph.agent.web.tools import WebTools
from seekgraph.agent.web.wrappers import CachedTools
from seekgraph.cli import main
from seekgraph.graphdb.settings import ConnectionSettings
from tests.agent_fixture import LEAPER_TASK, SHAPER_TASK, load_fixture
from tests.conftest import REPO_ROOT, cli_login, run_pipeline, run_stage


def walker(driver: neo4j.Driver, database: str | None, rate: float = 0.0) -> TeacherRollouts:
    """The gold walker (its plan is known, so these tests can assert each call)."""
    tools = CachedTools(WebTools(driver, database))
    walker = GoldWalkerPolicy(driver, database, tools, TeacherConfig(detour_rate=rate))
    return TeacherRollouts(walker, name="gold-walker")


def count(driver: neo4j.Driver, database: str | None, query: str) -> int:
    records, _, _ = driver.execute_query(query, database_=database)
    return int(records[0][0])


@pytest.fixture
def web(clean_db: neo4j.Driver, database: str | None) -> neo4j.Driver:
    load_fixture(clean_db, database)
    return clean_db


def test_gold_walker_solves_both_task_kinds_through_real_tool_calls(web, database) -> None:
    tasks = load_tasks(web, database)
    assert [t.task_id for t in tasks] == [LEAPER_TASK, SHAPER_TASK]
    policy = walker(web, database)
    leaper = policy.run(tasks[0], seed="s")
    turns = leaper.trajectory.turns
    calls = [(s.tool, s.arguments) for s in turns if s.kind == "tool_call"]
    assert calls[0] == ("search", {"query": ["Booker Prize Winners (selection)"]})
    assert calls[1][0] == "visit" and calls[1][1]["url"] == ["table:Booker_Prize_1"]
    assert "1981 | Salman Rushdie" in turns[1].observation
    assert leaper.prediction == "William Golding\nSalman Rushdie\nJ. M. Coetzee"
    assert leaper.detours == [] and not any(s.detour_kind for s in leaper.steps)
    assert leaper.messages[-1]["content"].endswith("<answer>" + leaper.prediction + "</answer>")
    shaper = policy.run(tasks[1], seed="s")
    queries = [s.arguments["query"][0] for s in shaper.trajectory.turns if s.tool == "search"]
    assert queries == ["Booker Prize award won", "Lord of the Flies notable work"]
    assert "/wiki/William_Golding" in {p for s in shaper.steps for p in s.pages}


def test_detours_are_recorded_and_reproducible(web, database) -> None:
    task = load_tasks(web, database, task_ids=[LEAPER_TASK])[0]
    policy = walker(web, database, rate=1.0)
    a, b = policy.run(task, seed="x"), policy.run(task, seed="x")
    assert a.detours == b.detours and len(a.detours) >= 3
    flagged = [k + 1 for k, s in enumerate(a.steps) if s.detour_kind]
    assert flagged == [d["turn"] for d in a.detours]
    assert {d["kind"] for d in a.detours} <= {
        "redundant_search",
        "irrelevant_visit",
        "reverification",
    }
    plain = walker(web, database).run(task, "x")
    assert len(a.steps) == len(plain.steps) + len(a.detours)


def test_rollouts_are_stored_scored_resumable_and_exported(web, database, tmp_path) -> None:
    tasks = load_tasks(web, database)
    policy = walker(web, database, rate=0.5)
    first = run_rollouts(web, database, tasks, policy, n=3, concurrency=2)
    assert (first.kept, first.skipped, first.rejected) == (6, 0, 0)
    assert count(web, database, "MATCH (r:Rollout {status: 'done'}) RETURN count(r)") == 6
    assert count(web, database, "MATCH (:Rollout)-[:FOR_TASK]->(:Task) RETURN count(*)") == 6
    assert count(web, database, "MATCH (s:Step)-[:SAW]->(:Page) RETURN count(s)") > 0
    hits_before = policy.teacher.tools.hits  # type: ignore[attr-defined]
    again = run_rollouts(web, database, tasks, policy, n=3)
    assert (again.kept, again.skipped) == (0, 6)
    assert policy.teacher.tools.hits == hits_before  # type: ignore[attr-defined]
    more = run_rollouts(web, database, tasks, policy, n=4)
    assert (more.kept, more.skipped) == (2, 6)
    scores = score_rollouts(web, database)
    assert scores.kept == 8
    records, _, _ = web.execute_query(
        "MATCH (r:Rollout {task_id: $t}) RETURN min(r.isr) AS isr, min(r.f1) AS f1",
        t=LEAPER_TASK,
        database_=database,
    )
    assert (records[0]["isr"], records[0]["f1"]) == (1.0, 1.0)
    path = tmp_path / "out.jsonl"
    assert export_jsonl(web, database, path, kept_only=False) == 8
    line = json.loads(path.read_text().splitlines()[0])
    assert set(line) >= {"question", "answer", "messages", "prediction", "termination"}
    assert line["messages"][0]["role"] == "system" and line["termination"] == "answer"


def test_shards_split_tasks_without_overlap(web, database) -> None:
    keys = [f"task-{i}" for i in range(200)]
    parts = [{k for k in keys if in_shard(k, (i, 3))} for i in range(3)]
    assert set().union(*parts) == set(keys) and sum(map(len, parts)) == 200
    assert min(map(len, parts)) > 40
    assert parse_shard("1/4") == (1, 4) and parse_shard(None) is None
    for bad in ("4/4", "x", "1/0"):
        with pytest.raises(ShardError):
            parse_shard(bad)
    both = load_tasks(web, database, shard=(0, 2)) + load_tasks(web, database, shard=(1, 2))
    assert sorted(t.task_id for t in both) == [LEAPER_TASK, SHAPER_TASK]


WORKER = textwrap.dedent("""
    import sys
    from seekgraph.graphdb.driver import open_driver
    from seekgraph.common.config import ConfigFile, resolve_settings
    from seekgraph.agent.rollouts import TeacherRollouts, load_tasks, run_rollouts
    from seekgraph.agent.gold_walker import GoldWalkerPolicy
    from seekgraph.agent.teacher import TeacherConfig
    from seekgraph.agent.web.tools import WebTools
    from seekgraph.agent.web.wrappers import CachedTools
    drv = open_driver(resolve_settings(ConfigFile()).connection)
    policy = TeacherRollouts(GoldWalkerPolicy(drv, None, CachedTools(WebTools(drv, None)),
                                              TeacherConfig(detour_rate=0.3)), name="gold-walker")
    run_rollouts(drv, None, load_tasks(drv, None), policy, n=int(sys.argv[1]), concurrency=1)
""")


def test_a_killed_rollout_run_resumes_without_repeating_work(
    web, database, neo4j_connection: ConnectionSettings
) -> None:
    n = 25
    env = {
        **os.environ,
        "NEO4J_URI": neo4j_connection.uri,
        "NEO4J_USERNAME": neo4j_connection.username,
        "NEO4J_PASSWORD": neo4j_connection.password,
        "PYTHONPATH": str(REPO_ROOT),
    }
    proc = subprocess.Popen([sys.executable, "-c", WORKER, str(n)], env=env, cwd=REPO_ROOT)
    done_query = "MATCH (r:Rollout {status: 'done'}) RETURN count(r)"
    deadline = time.monotonic() + 240
    try:
        while count(web, database, done_query) < 3 and time.monotonic() < deadline:
            assert proc.poll() is None, "the worker finished before it could be killed"
            time.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    before = count(web, database, done_query)
    assert 3 <= before < 2 * n
    steps_before = count(web, database, "MATCH (s:Step) RETURN count(s)")
    resumed = run_rollouts(
        web,
        database,
        load_tasks(web, database),
        walker(web, database, rate=0.3),
        n=n,
        concurrency=2,
    )
    assert resumed.skipped == before and resumed.kept == 2 * n - before
    assert count(web, database, done_query) == 2 * n
    # rollouts finished before the kill were not redone (their steps are unchanged)
    assert count(web, database, "MATCH (s:Step) RETURN count(s)") > steps_before
    assert count(web, database, "MATCH (r:Rollout) WHERE r.status <> 'done' RETURN count(r)") == 0


def test_cli_rollout_score_filter_and_web(web, database, neo4j_connection, tmp_path) -> None:
    base = cli_login(neo4j_connection)
    runner = CliRunner()
    out = runner.invoke(
        main,
        [
            *base,
            "rollout",
            "--policy",
            "teacher",
            "--n",
            "2",
            "--detour-rate",
            "0.2",
            "--kind",
            "leaper",
        ],
    )
    assert out.exit_code == 0, out.output
    assert "rollout: kept 2, rejected 0" in out.output
    out = runner.invoke(main, [*base, "score"])
    assert out.exit_code == 0 and "score: kept 2" in out.output, out.output
    out = runner.invoke(
        main, [*base, "filter", "--alpha", "0.3", "--beta", "0.1", "--out", str(tmp_path)]
    )
    assert out.exit_code == 0, out.output
    # the question-only teacher's detours may cost a rollout its ISE: both are judged
    kept, rejected = map(int, re.search(r"filter: kept (\d+), rejected (\d+)", out.output).groups())
    assert kept + rejected == 2 and kept >= 1, out.output
    assert len((tmp_path / "trajectories.jsonl").read_text().splitlines()) == kept
    out = runner.invoke(main, [*base, "web", "search", "Lord of the Flies"])
    assert out.exit_code == 0 and "[Lord of the Flies](/wiki/Lord_of_the_Flies)" in out.output
    out = runner.invoke(main, [*base, "web", "visit", "/wiki/Nowhere", "--goal", "x"])
    assert out.exit_code == 0 and "could not be accessed" in out.output
    out = runner.invoke(main, [*base, "rollout", "--shard", "5/2"])
    assert out.exit_code != 0 and "need 0 <= i < n" in out.output
    assert len(out.output.strip().splitlines()) == 1  # one line, no traceback


def test_pipeline_stages_rollout_score_filter(web, database, tmp_path) -> None:
    from seekgraph.agent.stages import ROLLOUT

    settings = {"n": 2, "detour_rate": 0.5, "hybrid": False}
    flags = {"rollout": settings}
    reports = run_pipeline(
        ("rollout", "score", "filter"), web, database, out_dir=tmp_path, flags=flags
    )
    assert [r.stage for r in reports] == ["rollout", "score", "filter"]
    assert reports[0].kept == 4 and reports[1].kept == 4
    assert reports[2].kept + reports[2].rejected == 4
    lines = (tmp_path / "trajectories.jsonl").read_text().splitlines()
    assert len(lines) == reports[2].kept
    again = run_stage(ROLLOUT, web, database, out_dir=tmp_path, **settings)
    assert (again.kept, again.skipped) == (0, 4)


def test_cli_rollout_names_requested_tasks_that_are_unknown_or_not_kept(
    web, database, neo4j_connection
) -> None:
    web.execute_query(
        "MATCH (t:Task {task_id: $id}) SET t.status = 'rejected', t.reason = 'empty_answer'",
        id=LEAPER_TASK,
        database_=database,
    )
    base = cli_login(neo4j_connection)
    args = ["rollout", "--n", "1", "--tasks", LEAPER_TASK, "--tasks", "nope:1"]
    out = CliRunner().invoke(main, [*base, *args, "--tasks", SHAPER_TASK])
    assert out.exit_code == 0, out.output
    assert (
        f"not rolled out: {LEAPER_TASK}: task_not_kept (status=rejected reason=empty_answer)"
        in out.output
    )
    assert "not rolled out: nope:1: unknown_task (no Task node has this id)" in out.output
    assert "rollout: kept 1, rejected 2" in out.output
    assert "rejected      1  task_not_kept" in out.output
    assert "rejected      1  unknown_task" in out.output
    stored = "MATCH (r:Rejection {stage: 'rollout'}) RETURN r.record_id + ' ' + r.reason AS x"
    records, _, _ = web.execute_query(stored, database_=database)
    assert sorted(r["x"] for r in records) == [
        f"{LEAPER_TASK} task_not_kept",
        "nope:1 unknown_task",
    ]
    assert count(web, database, "MATCH (r:Rollout) RETURN count(r)") == 1
    # a kept task excluded by --kind is named too; a kept selected one is not
    problems = unavailable_tasks(web, database, [SHAPER_TASK, SHAPER_TASK], kind="leaper")
    assert [(p.record_id, p.reason, p.detail) for p in problems] == [
        (SHAPER_TASK, "not_selected", "kind=shaper (asked leaper)")
    ]
    assert unavailable_tasks(web, database, [SHAPER_TASK], kind="shaper", variant="kp") == []
