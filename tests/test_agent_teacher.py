"""The question-only teacher on the default data, against the privileged gold walker.

One build of the default data (synthesis stages, then the `rollout` stage with each policy and
`score`) serves every test of the module: the teacher names no gold answer before a tool showed
it, answers what it read (so its precision varies), solves Union and Reverse-Union tasks, keeps
its own rollout ids, reads nothing but the question, and answers nothing right once every page
is emptied (that test runs last: it empties the pages).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import neo4j
import pytest

from seekgraph.agent.rollouts import load_tasks
from seekgraph.agent.stages import ROLLOUT, SCORE
from seekgraph.agent.store import read_trajectories
from seekgraph.agent.teacher import TaskInfo, TeacherConfig, TeacherPolicy
from seekgraph.agent.web.tools import WebTools
from seekgraph.common.answers import gold_records, parse_records
from seekgraph.common.text import normalize
from tests.conftest import run_pipeline, run_stage, wipe

pytestmark = pytest.mark.slow  # builds the default data (about 3 minutes)

SYNTHESIS = (
    "ingest",
    "relations",
    "leaper-trees",
    "leaper-basic",
    "leaper-union",
    "leaper-reverse",
    "shaper-seeds",
    "shaper-expand",
    "quality",
)
ROLLOUT_FLAGS = {"n": 1, "detour_rate": 0.3, "hybrid": False, "date": "2026-01-15"}


@pytest.fixture(scope="module")
def built(driver: neo4j.Driver, tmp_path_factory: pytest.TempPathFactory) -> Iterator[neo4j.Driver]:
    wipe(driver)
    out = tmp_path_factory.mktemp("teacher")
    run_pipeline(SYNTHESIS, driver, None, out_dir=out)
    for policy in ("teacher", "gold-walker"):
        report = run_stage(ROLLOUT, driver, None, out_dir=out, policy=policy, **ROLLOUT_FLAGS)
        assert report.kept == len(load_tasks(driver, None)), report
    run_stage(SCORE, driver, None, out_dir=out)
    yield driver


def rollouts(driver: neo4j.Driver, policy: str) -> list[dict]:
    return [
        dict(r)
        for r in driver.execute_query(
            "MATCH (r:Rollout {policy: $policy})-[:FOR_TASK]->(t:Task) "
            "RETURN r.rollout_id AS id, t.variant AS variant, t.question AS question, "
            "t.answer_json AS answer_json, r.precision AS precision, r.recall AS recall, "
            "r.f1 AS f1 ORDER BY id",
            policy=policy,
        ).records
    ]


def unseen_gold_names(driver: neo4j.Driver, policy: str) -> list[tuple[str, int, str]]:
    """(rollout, turn, name) of every tool call that names a gold answer which neither the
    question nor an earlier tool response showed."""
    rows = rollouts(driver, policy)
    stored = read_trajectories(driver, None, [r["id"] for r in rows])
    leaks = []
    for row in rows:
        names = {normalize(g.name) for g in gold_records(row["answer_json"])} - {""}
        seen = f" {normalize(row['question'])} "
        for k, turn in enumerate(stored[row["id"]].trajectory.turns):
            if turn.kind == "tool_call":
                called = f" {normalize(json.dumps(turn.arguments, ensure_ascii=False))} "
                leaks += [
                    (row["id"], k, n) for n in names if f" {n} " in called and f" {n} " not in seen
                ]
            seen += f" {normalize(turn.observation or '')} "
    return leaks


def test_the_teacher_names_no_gold_answer_before_a_tool_showed_it(built) -> None:
    assert unseen_gold_names(built, "teacher") == []
    # the check can fail: the gold walker writes answers it has not been shown into its goals
    assert unseen_gold_names(built, "gold-walker")


def test_the_teachers_precision_varies_and_it_solves_union_and_reverse_union(built) -> None:
    rows = rollouts(built, "teacher")
    precision = [float(r["precision"]) for r in rows]
    assert max(precision) == 1.0 and min(precision) < 1.0  # not 1 by construction
    assert all(float(r["precision"]) == 1.0 for r in rollouts(built, "gold-walker"))
    for variant in ("union", "reverse-union"):
        solved = [r for r in rows if r["variant"] == variant]
        assert any(float(r["recall"]) > 0 for r in solved), (variant, solved)


def test_teacher_and_gold_walker_rollouts_have_their_own_ids(built) -> None:
    ids = {p: {r["id"] for r in rollouts(built, p)} for p in ("teacher", "gold-walker")}
    assert ids["teacher"] and ids["gold-walker"] and not ids["teacher"] & ids["gold-walker"]
    # <task>/<policy>/<model: version, detour rate, digest of the non-default tool settings>/<i>
    assert all("/teacher/question-v1-d0.3-" in i for i in ids["teacher"])
    assert all("/gold-walker/gold-walker-d0.3-" in i for i in ids["gold-walker"])


def test_the_teacher_reads_only_the_question(built) -> None:
    policy = TeacherPolicy(WebTools(built, None), TeacherConfig())
    for task in load_tasks(built, None, limit=6):
        bare = TaskInfo("", "", "", task.question, None)
        assert policy.run(task, "s").messages == policy.run(bare, "s").messages


def test_with_every_page_emptied_the_teacher_answers_nothing_right(built) -> None:
    """Runs last in the module: it overwrites every page's text."""
    built.execute_query("MATCH (p:Page) SET p.text = 'Nothing here about anyone.'")
    policy = TeacherPolicy(WebTools(built, None), TeacherConfig())
    tasks = load_tasks(built, None)
    assert tasks
    for task in tasks:
        rollout = policy.run(task, "empty")
        gold = {normalize(g.name) for g in gold_records(task.answer_json)}
        said = {normalize(r.name) for r in parse_records(rollout.prediction)}
        assert not gold & said, (task.task_id, rollout.prediction)
        assert rollout.trajectory.tool_calls >= 1  # it searched and found nothing to read
