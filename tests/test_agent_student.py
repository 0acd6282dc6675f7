"""The student side of rollouts: cut observations, settings in rollout ids, the `student`
policy on a trained checkpoint, and valid turns, on the real server and the packaged SmolLM2."""

from __future__ import annotations

from pathlib import Path

import neo4j
import pytest

from seekgraph.agent.config import RolloutConfig
from seekgraph.agent.errors import AgentError
from seekgraph.agent.metrics import valid_turn
from seekgraph.agent.policies import checkpoint_id, make_policy, student_checkpoint
from seekgraph.agent.rollouts import load_tasks, run_rollouts
from seekgraph.agent.web.tools import WebTools
from seekgraph.agent.web.wrappers import CutTools, cut_text
from seekgraph.training import runs
from tests.agent_fixture import LEAPER_TASK, load_fixture


@pytest.fixture
def web(clean_db: neo4j.Driver, database: str | None) -> neo4j.Driver:
    load_fixture(clean_db, database)
    return clean_db


def test_cut_text_keeps_whole_lines_and_says_what_it_cut() -> None:
    text = "line one\nline two\nline three"
    assert cut_text(text, 0) == text and cut_text(text, 100) == text
    cut = cut_text(text, 20)
    assert cut == f"line one\nline two\n[... {len(text) - 17} characters cut]"
    assert cut_text("x" * 50, 10) == "x" * 10 + "\n[... 40 characters cut]"


def test_the_teacher_reads_cut_observations_and_answers_only_what_they_showed(
    web: neo4j.Driver, database: str | None
) -> None:
    task = load_tasks(web, database, task_ids=[LEAPER_TASK])[0]
    whole = make_policy(web, database, RolloutConfig(detour_rate=0.0))
    short = make_policy(web, database, RolloutConfig(detour_rate=0.0, observation_chars=120))
    assert whole.model == "question-v1-d0"  # default tool settings: no settings digest
    assert short.model.startswith("question-v1-d0-") and short.model != whole.model
    full, cut = whole.run(task, seed="s"), short.run(task, seed="s")
    for turn in cut.trajectory.turns[:-1]:
        assert len(turn.observation) <= 120 + len("\n[... 99999 characters cut]")
    assert any("characters cut]" in t.observation for t in cut.trajectory.turns[:-1])
    shown = " ".join(t.observation for t in cut.trajectory.turns)
    for line in cut.prediction.splitlines():
        assert line.split(" | ")[0] in shown
    assert len(cut.prediction) <= len(full.prediction)


def test_a_pinned_date_is_every_rollouts_current_date_and_keeps_its_id(
    web: neo4j.Driver, database: str | None
) -> None:
    task = load_tasks(web, database, task_ids=[LEAPER_TASK])[0]
    today = make_policy(web, database, RolloutConfig(detour_rate=0.0))
    pinned = make_policy(web, database, RolloutConfig(detour_rate=0.0, date="2025-06-30"))
    assert pinned.model == today.model  # a rollout resumed on another day is the same rollout
    trajectory = pinned.run(task, seed="s").trajectory
    assert trajectory.date == "2025-06-30"
    assert "Current date: 2025-06-30" in trajectory.messages()[0]["content"]
    assert trajectory.turns == today.run(task, seed="s").trajectory.turns
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        RolloutConfig(date="30.06.2025")


def test_cut_tools_leave_pages_and_errors_alone(web: neo4j.Driver, database: str | None) -> None:
    tools = CutTools(WebTools(web, database), 60)
    found = tools.call("search", {"query": ["Booker Prize"]})
    assert found.pages and len(found.text) < 100
    refused = tools.call("search", {"query": 5})
    assert refused.error == "malformed_arguments"


def test_valid_turns_are_answers_and_calls_that_returned_content() -> None:
    assert valid_turn("answer", None, "Paris") and not valid_turn("answer", None, " ")
    assert not valid_turn("answer", None)
    assert valid_turn("tool_call", None)
    assert not valid_turn("tool_call", "no_results") and not valid_turn("tool_call", "not_found")
    assert not valid_turn("tool_call", "malformed_arguments")
    assert not valid_turn("tool_call", "unknown_tool")
    assert not valid_turn("malformed_call", "malformed_tool_call")
    assert not valid_turn("invalid", None)


@pytest.mark.slow
def test_the_student_policy_rolls_out_the_latest_trained_checkpoint(
    web: neo4j.Driver, database: str | None, smollm2_checkpoint: Path, tmp_path: Path
) -> None:
    with pytest.raises(AgentError, match="no student checkpoint"):
        student_checkpoint(web, database, "")
    with pytest.raises(AgentError, match="run-sft:nope"):
        student_checkpoint(web, database, "run-sft:nope")
    runs.start_run(
        web,
        database,
        run_id="run-sft:student",
        kind="sft",
        config={},
        dataset_id="",
        output_dir=tmp_path,
    )
    runs.record_progress(
        web,
        database,
        run_id="run-sft:student",
        status="finished",
        metrics={},
        checkpoint=str(smollm2_checkpoint),
        checkpoints=[],
    )
    assert student_checkpoint(web, database, "") == smollm2_checkpoint
    assert student_checkpoint(web, database, "run-sft:student") == smollm2_checkpoint
    settings = RolloutConfig(policy="student", max_rounds=1, max_tokens=8, observation_chars=300)
    policy = make_policy(web, database, settings)
    assert policy.name == "student" and f"@ckpt-{checkpoint_id(smollm2_checkpoint)}" in policy.model
    assert policy.batches  # two concurrent rollouts run as one lock-step batch
    tasks = load_tasks(web, database)
    report = run_rollouts(web, database, tasks, policy, n=1, concurrency=2)
    assert report.kept + report.rejected == 2
    rows = web.execute_query(
        "MATCH (r:Rollout {policy: 'student'}) RETURN r.rounds AS rounds, "
        "r.valid_turns AS valid, r.model AS model, r.task_id AS task",
        database_=database,
    ).records
    assert sorted(r["task"] for r in rows) == sorted(t.task_id for t in tasks)
    for row in rows:
        assert row["model"] == policy.model and 0 <= row["valid"] <= row["rounds"] == 1
    again = run_rollouts(web, database, tasks, policy, n=1, concurrency=2)
    assert again.skipped == 2 and again.kept + again.rejected == 0
