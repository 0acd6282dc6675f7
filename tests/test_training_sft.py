"""SFT with TRL on the real SmolLM2 (converted once per session): masking, loss, resume, provenance.

Kept short for 2 CPU cores: tiny sequences (<= 384 tokens), a handful of steps.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import neo4j
import pytest
import torch

from seekgraph.training.config import DatasetSpec, SFTRunConfig
from seekgraph.training.datasets import build_dataset
from seekgraph.training.runs import checkpoint_trajectories, dropped_examples
from seekgraph.training.sft import build_trainer, run_sft
from tests.scaffolding.rollouts import messages, trajectory_rows, write_rows

pytestmark = pytest.mark.slow


def test_loss_is_on_assistant_turns_only(smollm2_checkpoint: Path, tmp_path: Path) -> None:
    conversation = messages(
        "Which entities of group 7?", ["Entity 7-0", "Entity 7-1"], 3, random.Random(0)
    )
    trainer = build_trainer(
        SFTRunConfig(max_length=1024, max_steps=1),
        smollm2_checkpoint,
        [{"messages": conversation}],
        tmp_path,
    )
    batch = trainer.data_collator([trainer.train_dataset[0]])
    ids, labels = batch["input_ids"][0].tolist(), batch["labels"][0].tolist()
    tokenizer = trainer.processing_class
    trained = tokenizer.decode([i for i, label in zip(ids, labels, strict=True) if label != -100])
    masked = tokenizer.decode([i for i, label in zip(ids, labels, strict=True) if label == -100])
    assistant = [m["content"] for m in conversation if m["role"] == "assistant"]
    others = [m for m in conversation if m["role"] != "assistant"]
    # exactly the assistant turns, each with its end-of-turn token (so the model learns to stop)
    assert trained == "".join(f"{a}<|im_end|>" for a in assistant)
    for m in others:  # system prompt, question and every tool response are masked, whole
        assert f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>" in masked
    assert "<tool_response>" not in trained and "<tool_call>" in trained and "<answer>" in trained
    assert "<|im_start|>assistant" in masked  # the role header is a prompt, not a target


def _weights(path: Path) -> dict[str, torch.Tensor]:
    from safetensors.torch import load_file

    return load_file(str(path / "model.safetensors"))


def test_sft_loss_falls_params_change_resumes_and_is_traceable(
    clean_db: neo4j.Driver, database: str | None, smollm2_checkpoint: Path, tmp_path: Path
) -> None:
    write_rows(clean_db, database, trajectory_rows(6, pruned_share=1.0, heldout_share=0.0, seed=5))
    built = build_dataset(
        clean_db,
        database,
        DatasetSpec(name="sft-test", mix="eff", kept_only=False),
        tmp_path / "ds",
    )
    config = SFTRunConfig(
        model=str(smollm2_checkpoint),
        dataset=built.dataset_id,
        output_dir=str(tmp_path / "run"),
        max_length=640,
        per_device_train_batch_size=1,
        limit_examples=1,
        num_train_epochs=10,
        max_steps=3,
        learning_rate=1e-4,
        save_steps=2,
        save_total_limit=2,
    )
    result = run_sft(config, driver=clean_db, database=database, echo=lambda s: None)
    assert result.steps == 3 and len(result.losses) == 3
    assert result.losses[-1] < result.losses[0]  # the same example every step: it learns
    before, after = _weights(smollm2_checkpoint), _weights(result.checkpoint)
    changed = [k for k in before if not torch.equal(before[k], after[k])]
    assert len(changed) > len(before) // 2
    # the run in the graph: config, dataset, per-step metrics, checkpoints, code version
    run = clean_db.execute_query(
        "MATCH (r:TrainingRun {run_id: $id})-[:TRAINED_ON]->(d:Dataset) RETURN r, d.dataset_id AS d",
        id=result.run_id,
        database_=database,
    ).records[0]
    node = run["r"]
    assert run["d"] == built.dataset_id and node["status"] == "finished" and node["kind"] == "sft"
    assert node["checkpoint"] == str(result.checkpoint.resolve())
    assert json.loads(node["config_json"])["max_length"] == 640 and node["code_version"]
    logged = [s["step"] for s in json.loads(node["metrics_json"])["steps"] if "loss" in s]
    assert logged == [1, 2, 3]
    assert str((tmp_path / "run" / "checkpoint-2").resolve()) in node["checkpoints"]
    # every dataset example has a TRAINING_EXAMPLE edge: used, or dropped with its reason
    edges = clean_db.execute_query(
        "MATCH (:Dataset {dataset_id: $d})-[i:INCLUDES]->(r:Rollout) "
        "OPTIONAL MATCH (:TrainingRun {run_id: $id})-[e:TRAINING_EXAMPLE]->(r) "
        "RETURN r.rollout_id AS id, i.position AS position, e.used AS used, e.reason AS reason, "
        "e.tokens AS tokens ORDER BY position",
        d=built.dataset_id,
        id=result.run_id,
        database_=database,
    ).records
    assert len(edges) == built.n_examples and all(e["used"] is not None for e in edges)
    used = [e["id"] for e in edges if e["used"]]
    too_long = [e for e in edges if e["reason"] == "over_max_length"]
    assert len(used) == 1 and too_long and all(e["tokens"] > 640 for e in too_long)
    assert all(e["tokens"] <= 640 for e in edges if e["reason"] != "over_max_length")
    assert {e["reason"] for e in edges if not e["used"]} <= {
        "over_max_length",
        "over_limit_examples",
    }
    assert result.dropped_too_long == len(too_long)
    # one query: which trajectories trained this checkpoint (final or intermediate): the used ones
    trained = checkpoint_trajectories(clean_db, database, str(result.checkpoint))
    assert [r["rollout_id"] for r in trained] == used
    assert all(r["pruned"] and r["original_id"] for r in trained)
    assert checkpoint_trajectories(clean_db, database, node["checkpoints"][0]) == trained
    dropped = dropped_examples(clean_db, database, result.run_id)
    assert sorted(r["rollout_id"] for r in dropped) == sorted(
        e["id"] for e in edges if not e["used"]
    )
    # a kill after checkpoint-2: the same config resumes from there and ends at step 3
    shutil.rmtree(result.checkpoint)
    for later in (tmp_path / "run").glob("checkpoint-*"):
        if later.name != "checkpoint-2":
            shutil.rmtree(later)
    resumed = run_sft(config, driver=clean_db, database=database, echo=lambda s: None)
    assert resumed.run_id == result.run_id
    assert resumed.resumed_from is not None and resumed.resumed_from.endswith("checkpoint-2")
    assert resumed.steps == 3 and (resumed.checkpoint / "model.safetensors").is_file()


def test_eval_writes_an_evaluation(
    clean_db: neo4j.Driver, database: str | None, smollm2_checkpoint: Path
) -> None:
    from seekgraph.training.config import EvalConfig
    from seekgraph.training.evaluation import evaluate_checkpoint

    rows = trajectory_rows(2, pruned_share=0.0, heldout_share=1.0, seed=2, prefix="ev")
    write_rows(clean_db, database, rows)
    settings = EvalConfig(
        checkpoint=str(smollm2_checkpoint),
        split="heldout",
        limit_tasks=1,
        max_rounds=1,
        max_tokens=16,
    )
    result = evaluate_checkpoint(clean_db, database, settings, echo=lambda s: None)
    assert result.n_tasks == 1 and result.run_id is None  # the base model: no training run
    record = clean_db.execute_query(
        "MATCH (e:Evaluation {eval_id: $id})-[:ON_TASK]->(t:Task), (e)-[:USED_ROLLOUT]->(r) "
        "RETURN e, t.task_id AS task, r.termination AS termination",
        id=result.eval_id,
        database_=database,
    ).records
    assert len(record) == 1 and record[0]["task"] == rows[0]["task_id"]
    assert record[0]["e"]["checkpoint"] == str(smollm2_checkpoint.resolve())
    assert 0.0 <= record[0]["e"]["fae"] <= 1.0
    assert record[0]["termination"] in {"answer", "max_rounds", "format_error", "context_limit"}
    again = evaluate_checkpoint(clean_db, database, settings, echo=lambda s: None)
    assert again.eval_id == result.eval_id  # re-run: same node, no new rollouts
