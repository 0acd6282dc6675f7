"""Datasets from the graph: filters, Eff / Hybrid mixes, variant ratios, provenance, determinism."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

import neo4j
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from seekgraph.cli import main
from seekgraph.common.config import read_config_file
from seekgraph.graphdb import cypher
from seekgraph.graphdb.errors import ConfigError
from seekgraph.graphdb.settings import ConnectionSettings
from seekgraph.training.config import DatasetSpec
from seekgraph.training.dataset_selection import Candidate, select, variant_counts
from seekgraph.training.datasets import build_dataset
from seekgraph.training.errors import DatasetError
from tests.conftest import cli_login
from tests.scaffolding.rollouts import trajectory_rows, write_rows


def cand(rid: str, task: str, **kw: object) -> Candidate:
    base: dict[str, object] = {"kept": True, "termination": "answer", "accuracy": 1.0}
    base.update(kw)
    return Candidate(rid, task, **base)  # type: ignore[arg-type]


POOL = [
    cand("a/0", "a", variant="basic", rounds=6),
    cand("a/0/p", "a", variant="basic", rounds=3, pruned=True, original_id="a/0"),
    cand("b/0", "b", variant="union", rounds=5),
    cand("c/0", "c", variant="union", rounds=2),  # easy: not "hard"
    cand("d/0", "d", variant="kp", rounds=9, kept=False),  # rejected by the ISR/ISE filter
    cand("e/0", "e", variant="basic", rounds=4, accuracy=0.0),  # wrong answer
    cand("f/0", "f", variant="reverse-union", rounds=7, split="heldout"),
]


def test_filters_give_reasons() -> None:
    sel = select(POOL, DatasetSpec(mix="filtered", min_accuracy=1.0))
    reasons = {rid: reason for rid, reason, _ in sel.rejected}
    assert reasons == {"d/0": "not_kept", "e/0": "not_correct", "f/0": "split"}
    assert {c.rollout_id for c in sel.chosen} == {"a/0", "a/0/p", "b/0", "c/0"}
    only_unpruned = select(POOL, DatasetSpec(mix="filtered", min_accuracy=1.0, pruned=False))
    assert {c.rollout_id for c in only_unpruned.chosen} == {"a/0", "b/0", "c/0"}


def test_eff_takes_pruned_only() -> None:
    sel = select(POOL, DatasetSpec(mix="eff", min_accuracy=1.0))
    assert [c.rollout_id for c in sel.chosen] == ["a/0/p"]
    assert ("b/0", "not_pruned", "") in sel.rejected


def test_hybrid_adds_hard_unpruned_of_other_tasks() -> None:
    sel = select(POOL, DatasetSpec(mix="hybrid", min_accuracy=1.0, hybrid_ratio=5))
    assert {c.rollout_id for c in sel.chosen} == {"a/0/p", "b/0"}
    reasons = {rid: reason for rid, reason, _ in sel.rejected}
    assert reasons["a/0"] == "task_on_pruned_side"  # the original of a pruned one stays out
    assert reasons["c/0"] == "not_hard"
    with pytest.raises(DatasetError, match="needs pruned and hard unpruned"):
        select(POOL, DatasetSpec(mix="hybrid", min_accuracy=1.0, hybrid_ratio=0))
    assert select(POOL, DatasetSpec(mix="auto", min_accuracy=1.0)).mix == "hybrid"
    assert select([POOL[2]], DatasetSpec(mix="auto")).mix == "filtered"


def test_hybrid_splits_tasks_when_every_task_has_a_pruned_twin() -> None:
    """Every task pruned (as after the prune stage): Hybrid still holds both kinds, of
    different tasks, about one unpruned per pruned at ratio 1."""
    pool = []
    for i in range(10):
        pool.append(cand(f"t{i}/0", f"t{i}", rounds=8))
        pool.append(cand(f"t{i}/0/p", f"t{i}", rounds=3, pruned=True, original_id=f"t{i}/0"))
    sel = select(pool, DatasetSpec(mix="hybrid", hybrid_ratio=1.0))
    pruned = {c.task_id for c in sel.chosen if c.pruned}
    unpruned = {c.task_id for c in sel.chosen if not c.pruned}
    assert len(pruned) == len(unpruned) == 5
    assert not pruned & unpruned
    assert select(pool, DatasetSpec(mix="auto")).mix == "hybrid"
    one_in_four = select(pool, DatasetSpec(mix="hybrid", hybrid_ratio=1 / 3))
    assert sum(not c.pruned for c in one_in_four.chosen) == round(10 / 4)


def test_variant_ratios_and_limit() -> None:
    pool = [cand(f"{v}{i}", f"{v}{i}", variant=v) for v in ("basic", "union") for i in range(10)]
    pool += [cand(f"kp{i}", f"kp{i}", variant="kp") for i in range(3)]
    sel = select(pool, DatasetSpec(mix="filtered", variant_ratios={"basic": 2, "union": 1}))
    assert Counter(c.variant for c in sel.chosen) == {"basic": 10, "union": 5}
    assert Counter(r for _, r, _ in sel.rejected) == {
        "over_variant_ratio": 5,
        "variant_not_in_mix": 3,
    }
    limited = select(
        pool, DatasetSpec(mix="filtered", variant_ratios={"basic": 1, "kp": 1}, limit=4)
    )
    assert Counter(c.variant for c in limited.chosen) == {"basic": 2, "kp": 2}
    assert len(select(pool, DatasetSpec(mix="filtered", limit=7)).chosen) == 7


@settings(max_examples=40, deadline=None)
@given(
    available=st.dictionaries(st.sampled_from(["basic", "union", "kp"]), st.integers(0, 30)),
    ratios=st.dictionaries(st.sampled_from(["basic", "union", "kp"]), st.floats(0.1, 5.0)),
    limit=st.integers(0, 40),
)
def test_variant_counts_fit_availability_and_ratios(
    available: dict[str, int], ratios: dict[str, float], limit: int
) -> None:
    counts = variant_counts(available, ratios, limit)
    if not ratios:
        assert counts == {}
        return
    total = sum(ratios.values())

    def take(n: int) -> dict[str, int]:
        return {v: int(n * r / total + 1e-9) for v, r in ratios.items()}

    # brute force: the largest total whose floors fit the availability (and the limit)
    best = max(
        n
        for n in range(0, 200)
        if (not limit or n <= limit) and all(c <= available.get(v, 0) for v, c in take(n).items())
    )
    assert counts == take(best)
    assert all(counts[v] <= available.get(v, 0) for v in counts)


def test_selection_is_deterministic_and_seeded() -> None:
    pool = [cand(f"r{i}", f"t{i}") for i in range(50)]
    a = [c.rollout_id for c in select(pool, DatasetSpec(mix="filtered", limit=10)).chosen]
    b = [c.rollout_id for c in select(reversed(pool), DatasetSpec(mix="filtered", limit=10)).chosen]
    c = [c.rollout_id for c in select(pool, DatasetSpec(mix="filtered", limit=10, seed=1)).chosen]
    assert a == b and a != c


def test_config_files_are_typed(tmp_path: Path) -> None:
    good = tmp_path / "d.toml"
    good.write_text(
        '[dataset]\nname = "x"\nmix = "eff"\nvariants = ["basic"]\nmin_isr = 0.3\n'
        "variant_ratios = { basic = 1, union = 2 }\n"
    )
    config = read_config_file(good, ["dataset"])
    spec = config.load(DatasetSpec, "dataset", {"limit": 5})
    assert (spec.name, spec.mix, spec.variants, spec.min_isr, spec.limit) == (
        "x",
        "eff",
        ("basic",),
        0.3,
        5,
    )
    assert spec.variant_ratios == {"basic": 1.0, "union": 2.0}
    for text, message in [
        ("mixx = 'eff'", "unknown setting 'mixx'"),
        ("mix = 'fast'", "mix: expected one of"),
        ("min_isr = 'high'", "min_isr: expected a number"),
        ("kept_only = 1", "kept_only: expected true or false"),
        ("limit = [", "not valid TOML"),
    ]:
        bad = tmp_path / "bad.toml"
        bad.write_text("[dataset]\n" + text + "\n")
        with pytest.raises(ConfigError, match=message):
            read_config_file(bad, ["dataset"]).load(DatasetSpec, "dataset")


def test_build_writes_files_links_rollouts_and_is_idempotent(
    clean_db: neo4j.Driver, database: str | None, tmp_path: Path
) -> None:
    rows = trajectory_rows(24, per_task=2, pruned_share=0.6, heldout_share=0.2, seed=3)
    write_rows(clean_db, database, rows)
    spec = DatasetSpec(name="hyb", mix="hybrid", min_accuracy=1.0, hybrid_min_rounds=3)
    built = build_dataset(clean_db, database, spec, tmp_path)
    lines = (built.path / "train.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    assert built.n_examples == len(records) > 0
    by_id = {r["rollout_id"]: r for r in rows}
    pruned_tasks = {r["task_id"] for r in records if r["pruned"]}
    for rec in records:
        source = by_id[rec["rollout_id"]]
        assert source["split"] == "train" and source["accuracy"] == 1.0 and source["kept"]
        assert rec["messages"] == source.trajectory.messages()
        roles = [m["role"] for m in rec["messages"]]
        assert roles[:2] == ["system", "user"] and roles[-1] == "assistant"
        assert "<answer>" in rec["messages"][-1]["content"]
        if not rec["pruned"]:
            assert source["rounds"] >= 3 and rec["task_id"] not in pruned_tasks
    assert sum(r["pruned"] for r in records) >= sum(not r["pruned"] for r in records)
    # provenance: the Dataset node includes exactly the rollouts in the file
    included = clean_db.execute_query(
        "MATCH (:Dataset {dataset_id: $id})-[:INCLUDES]->(r:Rollout) RETURN r.rollout_id AS id",
        id=built.dataset_id,
        database_=database,
    ).records
    assert sorted(r["id"] for r in included) == sorted(r["rollout_id"] for r in records)
    card = (built.path / "README.md").read_text()
    assert built.jsonl_sha256 in card and f"examples: {len(records)}" in card
    assert (
        hashlib.sha256((built.path / "train.jsonl").read_bytes()).hexdigest() == built.jsonl_sha256
    )
    from datasets import load_from_disk

    hf = load_from_disk(str(built.path / "hf"))
    assert hf.num_rows == len(records) and hf[0]["messages"] == records[0]["messages"]
    check_trainer_exports(built.path, rows, records)
    # the same spec twice: the same dataset (id, file hash), nothing rewritten
    again = build_dataset(clean_db, database, spec, tmp_path)
    assert (again.dataset_id, again.jsonl_sha256, again.path) == (
        built.dataset_id,
        built.jsonl_sha256,
        built.path,
    )
    assert again.report.skipped == len(records) and again.report.kept == 0
    # a fresh output folder gets byte-identical files
    other = build_dataset(clean_db, database, spec, tmp_path / "elsewhere")
    assert (other.path / "train.jsonl").read_bytes() == (built.path / "train.jsonl").read_bytes()
    eff = build_dataset(clean_db, database, DatasetSpec(name="eff", mix="eff"), tmp_path)
    eff_records = [json.loads(x) for x in (eff.path / "train.jsonl").read_text().splitlines()]
    assert eff_records and all(r["pruned"] for r in eff_records)
    assert eff.dataset_id != built.dataset_id
    n_datasets = cypher.read(clean_db, "training/find_dataset", database=database, key="eff")
    assert n_datasets[0]["dataset_id"] == eff.dataset_id


def check_trainer_exports(folder: Path, rows: list[Any], records: list[dict[str, Any]]) -> None:
    """The card's YAML, the held-out split, LLaMA-Factory's ShareGPT files and verl's parquet,
    each read by the loader its trainer uses."""
    import stat

    import yaml
    from datasets import load_dataset

    card = (folder / "README.md").read_text()
    header = yaml.safe_load(card.split("---\n")[1])
    assert header["license"] == "cc-by-sa-4.0" and "CC BY-SA 4.0" in card
    splits = {f["split"]: f["path"] for f in header["configs"][0]["data_files"]}
    assert splits == {"train": "train.jsonl", "test": "test.jsonl"}
    assert stat.S_IMODE(folder.stat().st_mode) == 0o755
    # the held-out tasks, each a prompt with its gold answers (a list of records), no trajectory
    heldout = {r["task_id"] for r in rows if r["split"] == "heldout"}
    data = load_dataset("json", data_files={s: str(folder / p) for s, p in splits.items()})
    assert data["train"].num_rows == len(records)
    test = data["test"]
    assert heldout and set(test["task_id"]) == heldout
    assert {r["task_id"] for r in records}.isdisjoint(heldout)
    for row in test:
        assert [m["role"] for m in row["messages"]] == ["system", "user"]
        assert isinstance(row["answers"], list) and row["answers"]
        assert row["answer_entities"] == [a["name"] for a in row["answers"]]
    # LLaMA-Factory: the dataset_info entry names the file and the ShareGPT tags
    info = json.loads((folder / "llamafactory" / "dataset_info.json").read_text())
    (entry,) = info.values()
    assert entry["formatting"] == "sharegpt" and entry["tags"]["observation_tag"] == "observation"
    conversations = json.loads((folder / "llamafactory" / entry["file_name"]).read_text())
    assert len(conversations) == len(records)
    for conv, rec in zip(conversations, records, strict=True):
        roles = [t["from"] for t in conv["conversations"]]
        assert roles[0] == "human" and roles[-1] == "gpt"
        # human/observation on odd positions, gpt on even (what LLaMA-Factory checks)
        assert all(r in ("human", "observation") for r in roles[0::2])
        assert all(r == "gpt" for r in roles[1::2])
        tool_turns = [m for m in rec["messages"][2:] if m["role"] == "user"]
        assert roles.count("observation") == len(tool_turns)
        assert conv["system"] == rec["messages"][0]["content"]
    # verl: prompt, data_source, reward_model.ground_truth per task
    verl = load_dataset("parquet", data_files={"train": str(folder / "verl" / "train.parquet")})
    train_tasks = {r["task_id"] for r in records}
    assert {x["task_id"] for x in verl["train"]["extra_info"]} == train_tasks
    first = verl["train"][0]
    assert first["data_source"].startswith("seekgraph/")
    assert first["reward_model"]["style"] == "rule" and first["reward_model"]["ground_truth"]
    assert [m["role"] for m in first["prompt"]] == ["system", "user"]
    verl_test = load_dataset("parquet", data_files={"test": str(folder / "verl" / "test.parquet")})
    assert verl_test["test"].num_rows == len(heldout)


def test_nothing_selected_is_an_error(
    clean_db: neo4j.Driver, database: str | None, tmp_path: Path
) -> None:
    write_rows(clean_db, database, trajectory_rows(3, pruned_share=0.0, seed=1))
    with pytest.raises(DatasetError, match="no trajectory passes"):
        build_dataset(clean_db, database, DatasetSpec(mix="eff"), tmp_path)


def test_cli_builds_and_reports_bad_specs(
    clean_db: neo4j.Driver, neo4j_connection: ConnectionSettings, tmp_path: Path
) -> None:
    write_rows(clean_db, None, trajectory_rows(8, pruned_share=0.7, seed=9))
    spec = tmp_path / "spec.toml"
    spec.write_text('[dataset]\nname = "cli"\nmix = "eff"\nkept_only = false\n')
    base = [*cli_login(neo4j_connection), "dataset"]
    out = tmp_path / "out"
    result = CliRunner().invoke(
        main, [*base, "--config", str(spec), "--out", str(out), "--no-hf-folder"]
    )
    assert result.exit_code == 0, result.output
    assert "dataset: kept" in result.output and "(eff)" in result.output
    assert len(list(out.glob("datasets/cli-*/train.jsonl"))) == 1
    assert count_stage_runs(clean_db) == 1
    spec.write_text('[dataset]\nmix = "eff"\nmin_isr = "high"\n')
    bad = CliRunner().invoke(main, [*base, "--config", str(spec), "--out", str(out)])
    assert bad.exit_code != 0 and "min_isr: expected a number" in bad.output
    assert "Traceback" not in bad.output and len(bad.output.strip().splitlines()) == 1


def count_stage_runs(driver: neo4j.Driver) -> int:
    records = driver.execute_query(
        "MATCH (s:StageRun {stage: 'dataset'}) RETURN count(s) AS n"
    ).records
    return int(records[0]["n"])
