"""`seekgraph train grpo`: GRPO with TRL's `GRPOTrainer` on the graph's tasks — SINGLE-TURN.

What it is: each prompt is a task question in the agent's wire format; with `search_context`
the environment takes the first step — one real `search` call through the agent's tools
(`agent.web.tools`, cached in the graph) — and the prompt ends with its `<tool_response>`, so the
model writes the next assistant turn. Rewards (training/rewards.py) score that turn against the
task's target set from the graph: WebLeaper's soft-F over entities, an ISE efficiency term
(targets found per action, counting the environment's call and any the model adds) and a format
term. What it is not: a multi-turn agent loop inside GRPO — TRL's multi-turn `environment_factory`
needs a tool-calling chat template and response parser that SmolLM2 lacks, so the model's own
tool calls are scored (format/efficiency) but not executed during GRPO.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import neo4j

from training import runs
from training.config import GRPORunConfig, as_dict
from training.errors import TrainingError
from training.sft import resolve_model

SYSTEM = (
    "You are a deep research assistant. Use the search results to answer. Think inside "
    "<think></think>, then give the final answer inside <answer></answer>, one item per line."
)


@dataclass
class GRPOResult:
    run_id: str
    output_dir: Path
    checkpoint: Path
    steps: int
    rewards: list[float]
    tasks: int
    seconds: float
    metrics: dict[str, Any] = field(default_factory=dict)


def task_prompts(
    driver: neo4j.Driver, database: str | None, config: GRPORunConfig
) -> list[dict[str, Any]]:
    """One record per task: `prompt` (messages), `targets` (name lists), `prior_actions`."""
    from agent.metrics import gold_items
    from agent.rollouts import load_targets, load_tasks

    tasks = []
    for variant in config.variants or (None,):
        tasks += load_tasks(
            driver, database, split=config.split, variant=variant, limit=config.limit_tasks
        )
    tasks = sorted(tasks, key=lambda t: t.task_id)[: config.limit_tasks]
    if not tasks:
        raise TrainingError(f"no kept task with split={config.split!r} for GRPO")
    targets = load_targets(driver, database, [t.task_id for t in tasks])
    tools = None
    if config.search_context:
        from agent.cli import make_tools
        from agent.config import AgentSettings

        tools = make_tools(driver, database, replace(AgentSettings(), top_k=3))
    records = []
    for task in tasks:
        names = [list(t.names) for t in targets.get(task.task_id, []) if t.names]
        if not names:
            names = [[item] for item in gold_items(task.answer_json)]
        if not names:
            continue
        prompt = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": task.question}]
        prior = 0
        if tools is not None:
            call = {"name": "search", "arguments": {"query": [task.question]}}
            observation = tools.call("search", call["arguments"])
            import json

            prompt += [
                {
                    "role": "assistant",
                    "content": "<think>I will search for the question.</think>\n"
                    f"<tool_call>\n{json.dumps(call, ensure_ascii=False)}\n</tool_call>",
                },
                {
                    "role": "user",
                    "content": f"<tool_response>\n{observation.text}\n</tool_response>",
                },
            ]
            prior = 1
        records.append(
            {"prompt": prompt, "targets": names, "prior_actions": prior, "task_id": task.task_id}
        )
    return records


def run_grpo(
    config: GRPORunConfig,
    *,
    driver: neo4j.Driver,
    database: str | None,
    out_root: Path = Path("out"),
    echo: Any = print,
) -> GRPOResult:
    """Build prompts from the graph, train with GRPOTrainer, record the TrainingRun."""
    import torch
    from datasets import Dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer

    from training.rewards import make_trl_rewards

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    records = task_prompts(driver, database, config)
    if not records:
        raise TrainingError("no task has targets or a gold answer to reward against")
    model_path = resolve_model(config.model)
    cfg = as_dict(config)
    task_ids = [r["task_id"] for r in records]
    rid = runs.run_id(
        "grpo", {k: v for k, v in cfg.items() if k != "output_dir"}, ",".join(task_ids)
    )
    output_dir = (
        Path(config.output_dir)
        if config.output_dir
        else (out_root / "runs" / rid.replace(":", "-"))
    )
    output_dir.mkdir(parents=True, exist_ok=True)
    runs.start_run(
        driver, database, run_id=rid, kind="grpo", config=cfg, dataset_id="", output_dir=output_dir
    )
    runs.link_tasks(driver, database, rid, task_ids)
    metrics: dict[str, Any] = {
        "tasks": len(records),
        "model": str(model_path),
        "mode": "single-turn, one environment search step"
        if config.search_context
        else "single-turn",
    }
    checkpoints: list[str] = []
    tokenizer = AutoTokenizer.from_pretrained(str(model_path), padding_side="left")
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    model = AutoModelForCausalLM.from_pretrained(
        str(model_path), dtype=getattr(torch, config.dtype)
    )
    use_cpu = config.device == "cpu"
    args = GRPOConfig(
        output_dir=str(output_dir),
        num_generations=config.num_generations,
        per_device_train_batch_size=config.per_device_train_batch_size,
        gradient_accumulation_steps=config.gradient_accumulation_steps,
        max_completion_length=config.max_completion_length,
        temperature=config.temperature,
        learning_rate=config.learning_rate,
        beta=config.beta,
        max_steps=config.max_steps,
        logging_steps=config.logging_steps,
        save_steps=config.save_steps,
        seed=config.seed,
        use_cpu=use_cpu,
        bf16=config.dtype == "bfloat16" and not use_cpu,
        report_to=[],
        reward_weights=[config.weight_soft_f, config.weight_efficiency, config.weight_format],
        disable_tqdm=True,
        dataloader_num_workers=0,
    )
    callback = runs.progress_callback(driver, database, rid, metrics, checkpoints)
    trainer = GRPOTrainer(
        model=model,
        reward_funcs=make_trl_rewards(config.omega),  # type: ignore[arg-type]
        args=args,
        train_dataset=Dataset.from_list(records),
        processing_class=tokenizer,
        callbacks=[callback],
    )
    echo(f"GRPO run {rid}: {len(records)} task prompts, model {model_path}")
    start = time.perf_counter()
    try:
        trainer.train()
    except (RuntimeError, ValueError) as e:
        runs.record_progress(
            driver,
            database,
            run_id=rid,
            status="failed",
            metrics=metrics,
            checkpoint=None,
            checkpoints=checkpoints,
        )
        raise TrainingError(f"GRPO failed: {e}") from e
    seconds = time.perf_counter() - start
    final = output_dir / "final"
    trainer.save_model(str(final))
    tokenizer.save_pretrained(str(final))
    rewards = [s["reward"] for s in metrics.get("steps", []) if "reward" in s]
    metrics["global_step"] = int(trainer.state.global_step)
    metrics["seconds"] = seconds
    runs.record_progress(
        driver,
        database,
        run_id=rid,
        status="finished",
        metrics=metrics,
        checkpoint=str(final.resolve()),
        checkpoints=checkpoints,
    )
    return GRPOResult(
        rid,
        output_dir,
        final,
        int(trainer.state.global_step),
        rewards,
        len(records),
        seconds,
        metrics,
    )
