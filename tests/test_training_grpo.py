"""GRPO smoke test on CPU: SmolLM2, a handful of steps, rewards from the graph's target sets."""

from __future__ import annotations

import json
from pathlib import Path

import neo4j
import pytest

from training.config import GRPORunConfig
from training.grpo import run_grpo, task_prompts
from training.synthetic import trajectory_rows, write_rows

pytestmark = pytest.mark.slow


def test_grpo_smoke(
    clean_db: neo4j.Driver, database: str | None, smollm2_checkpoint: Path, tmp_path: Path
) -> None:
    write_rows(clean_db, database, trajectory_rows(3, pruned_share=0.0, seed=4, prefix="gr"))
    config = GRPORunConfig(
        model=str(smollm2_checkpoint),
        output_dir=str(tmp_path / "grpo"),
        limit_tasks=2,
        num_generations=2,
        per_device_train_batch_size=2,
        max_completion_length=12,
        max_steps=2,
        learning_rate=1e-5,
    )
    prompts = task_prompts(clean_db, database, config)
    assert len(prompts) == 2
    first = prompts[0]
    # one real environment step: the search call and its observation end the prompt
    assert (
        first["prompt"][-2]["role"] == "assistant"
        and "<tool_call>" in first["prompt"][-2]["content"]
    )
    assert first["prompt"][-1]["content"].startswith("<tool_response>")
    assert first["prior_actions"] == 1 and first["targets"]  # gold items as target names
    result = run_grpo(config, driver=clean_db, database=database, echo=lambda s: None)
    assert result.steps == 2 and len(result.rewards) == 2
    assert all(0.0 <= r <= 1.4 for r in result.rewards)  # weights 1 + 0.2 + 0.2
    assert (result.checkpoint / "model.safetensors").is_file()
    node = clean_db.execute_query(
        "MATCH (r:TrainingRun {run_id: $id}) OPTIONAL MATCH (r)-[:USED_TASK]->(t:Task) "
        "RETURN r, count(t) AS tasks",
        id=result.run_id,
        database_=database,
    ).records[0]
    assert node["r"]["kind"] == "grpo" and node["r"]["status"] == "finished" and node["tasks"] == 2
    steps = json.loads(node["r"]["metrics_json"])["steps"]
    assert any("rewards/soft_f_reward/mean" in s for s in steps)
