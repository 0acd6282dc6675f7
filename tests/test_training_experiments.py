"""`seekgraph experiment`: the arms' datasets, the tables, and a whole tiny run on the real
server with the packaged SmolLM2 (one SFT step per arm), resumed without training again."""

from __future__ import annotations

from pathlib import Path

import neo4j
import pytest

from seekgraph.training.experiment_config import ExperimentConfig
from seekgraph.training.experiment_tables import ArmResult, render_tables, within_noise
from seekgraph.training.experiments import arm_spec, run_experiment
from tests.agent_fixture import SHAPER_TASK, load_fixture


def test_arms_take_the_same_teacher_rollouts_and_differ_only_in_selection() -> None:
    filtered = arm_spec("filtered", 1, "teacher-d0.3-abc", ("basic",), 0)
    assert (filtered.mix, filtered.kept_only, filtered.pruned) == ("filtered", True, False)
    assert filtered.models == ("teacher-d0.3-abc",) and filtered.splits == ("train",)
    unfiltered = arm_spec("unfiltered", 1, "teacher-d0.3-abc", ("basic",), 0)
    assert (unfiltered.kept_only, unfiltered.pruned, unfiltered.limit) == (False, False, 0)
    random = arm_spec("random", 1, "teacher-d0.3-abc", ("basic",), 17)
    assert (random.kept_only, random.limit, random.seed) == (False, 17, 1)
    assert arm_spec("pruned", 1, "m", (), 0).mix == "eff"
    assert arm_spec("hybrid", 1, "m", (), 0).mix == "hybrid"


def test_noise_is_judged_by_overlapping_ranges_over_seeds() -> None:
    assert within_noise([0.1, 0.3], [0.25, 0.5])
    assert not within_noise([0.1, 0.2], [0.3, 0.5])
    assert within_noise([0.1], [0.9])  # one seed: no spread to judge by


def _arm(arm: str, seed: int, rounds: float) -> ArmResult:
    metrics = dict.fromkeys(
        ("valid_turn_rate", "accuracy", "f1", "isr", "ise", "tokens", "fae"), 0.5
    )
    metrics["rounds"] = rounds
    return ArmResult(arm, seed, "d", 10, 2, "r", "c", "e", metrics)


def test_tables_show_means_ranges_and_which_differences_exceed_noise() -> None:
    config = ExperimentConfig(seeds=(0, 1), arms=("filtered", "pruned"))
    base = dict.fromkeys(
        ("valid_turn_rate", "accuracy", "f1", "isr", "ise", "rounds", "tokens", "fae"), 0.0
    )
    results = [_arm("filtered", 0, 8.0), _arm("filtered", 1, 7.0)]
    results += [_arm("pruned", 0, 3.0), _arm("pruned", 1, 4.0)]
    text = render_tables(config, base, results, {"eval_tasks": 5})
    assert "## webclipper" in text and "## webleaper" not in text  # one arm of webleaper
    assert "| unpruned | 10/10 (2/2) |" in text
    assert "7.500 [7.000, 8.000]" in text and "3.500 [3.000, 4.000]" in text
    assert "pruned vs unpruned: beyond seed noise on rounds; the rest within." in text


@pytest.mark.slow
def test_a_tiny_experiment_runs_links_its_evaluations_and_resumes(
    clean_db: neo4j.Driver, database: str | None, tmp_path: Path
) -> None:
    load_fixture(clean_db, database)
    clean_db.execute_query(
        "MATCH (t:Task {task_id: $id}) SET t.split = 'heldout'", id=SHAPER_TASK, database_=database
    )
    config = ExperimentConfig(
        name="tiny",
        arms=("filtered", "pruned"),
        seeds=(0,),
        rollouts_per_task=2,
        detour_rate=1.0,
        max_steps=1,
        max_length=4096,
        mixed_bf16=False,
        eval_tasks=1,
        max_rounds=1,
        max_tokens=8,
        concurrency=1,
    )
    result = run_experiment(clean_db, database, config, tmp_path / "a", echo=lambda _: None)
    assert [(r.arm, r.seed) for r in result.arms] == [("filtered", 0), ("pruned", 0)]
    assert all(r.examples > 0 for r in result.arms)
    # every arm trains on the smallest arm's count of fitting examples: size is no confound
    assert {r.examples for r in result.arms} == {result.data["examples_per_arm"]["0"]}
    assert "Examples per arm" in result.path.read_text()
    assert result.data["train_tasks"] == 1 and result.data["eval_tasks"] == 1
    assert result.data["pruned_versions"] >= 1
    links = clean_db.execute_query(
        "MATCH (:Experiment {experiment_id: $id})-[h:HAS_EVALUATION]->(e:Evaluation) "
        "RETURN h.arm AS arm, e.valid_turn_rate AS valid, e.n_tasks AS n ORDER BY arm",
        id=result.experiment_id,
        database_=database,
    ).records
    assert [r["arm"] for r in links] == ["base", "filtered", "pruned"]
    assert all(r["n"] == 1 and 0 <= r["valid"] <= 1 for r in links)
    table = result.path.read_text()
    assert "| base model |" in table and "| unpruned |" in table and "| pruned |" in table
    assert f"{result.data['pruned_versions']} of its " in table  # what the graph holds

    def counts() -> tuple[int, object, int, int]:
        row = clean_db.execute_query(
            "MATCH (r:TrainingRun) WITH count(r) AS n, max(r.updated_at) AS last "
            "RETURN n, last, COUNT { (:Rollout) } AS rollouts, COUNT { (:Evaluation) } AS evals",
            database_=database,
        ).records[0]
        return row["n"], row["last"], row["rollouts"], row["evals"]

    before = counts()
    # resumed from another place: the run's folder moved, nothing is trained or rolled out again
    (tmp_path / "a").rename(tmp_path / "b")
    again = run_experiment(clean_db, database, config, tmp_path / "b", echo=lambda _: None)
    assert counts() == before
    assert [r.eval_id for r in again.arms] == [r.eval_id for r in result.arms]
    assert all(r.checkpoint.startswith(str(tmp_path / "b")) for r in again.arms)
    assert "pruned version (this pass: {'pruned': 0" in again.path.read_text()
