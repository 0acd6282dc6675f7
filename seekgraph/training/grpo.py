"""The `train-grpo` stage: multi-turn GRPO with TRL's `GRPOTrainer` on the graph's tasks.

Each prompt is a task question in the agent's wire format (the one system prompt with the
`search`/`visit` tool specs). With `seed_actions` the environment writes the first assistant
turn(s) — e.g. one real `search` for the question, optionally a `visit` of its top hit — so a
small model starts from a realistic context. Rollouts then go through the agent's environment
via TRL's `rollout_func` hook (seekgraph/training/multiturn.py): the policy writes
``<think>…</think><tool_call>{…}</tool_call>``, the real tools over the graph's offline web
answer with ``<tool_response>…</tool_response>``, for up to `max_rounds` policy turns or until
``<answer>``. Tool-response tokens are context only (TRL's ``env_mask``: no loss). Rewards
(seekgraph/training/rewards.py) score the whole trajectory against the task's target set from the
graph: WebLeaper's soft-F over entities, an ISE efficiency term (targets revealed by `visit`
observations per tool call) and a format term over the policy's turns.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import neo4j

from seekgraph.common.answers import gold_names
from seekgraph.common.offline import offline_and_quiet
from seekgraph.common.wire import assistant_text, system_prompt, tool_response_text
from seekgraph.training import runs
from seekgraph.training.config import GRPORunConfig, as_dict
from seekgraph.training.errors import TrainingConfigError, TrainingError
from seekgraph.training.sft import resolve_model


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


def seed_turns(tools: Any, question: str, actions: tuple[str, ...]) -> list[dict[str, str]]:
    """Environment-written opening turns: ``search`` the question, ``visit`` the top hit of the
    last search (goal: the question). Each is a real tool call; its response follows."""
    messages: list[dict[str, str]] = []
    last_hits: tuple[str, ...] = ()  # pages of the last search, best first
    for action in actions:
        if action == "search":
            arguments: dict[str, Any] = {"query": [question]}
            thought = "I will search for the question."
        elif action == "visit":
            if not last_hits:
                break  # nothing to visit: the policy takes over
            arguments = {"url": [last_hits[0]], "goal": question}
            thought = "I will read the top result."
        else:
            raise TrainingConfigError(f"seed action {action!r} is not 'search' or 'visit'")
        observation = tools.call(action, arguments)
        if action == "search":
            last_hits = observation.pages
        messages += [
            {"role": "assistant", "content": assistant_text(thought, call=(action, arguments))},
            {"role": "user", "content": tool_response_text(observation.text)},
        ]
    return messages


def task_prompts(
    driver: neo4j.Driver, database: str | None, config: GRPORunConfig, tools: Any | None = None
) -> list[dict[str, Any]]:
    """One record per task: `prompt` (messages, seeded turns included), `targets` (name lists),
    `owners` (per target, the indexes of the targets it is an attribute of),
    `gold` (the answer records' JSON the reward scores against)."""
    from seekgraph.agent.rollouts import load_targets, load_tasks

    tasks = []
    for variant in config.variants or (None,):
        tasks += load_tasks(
            driver, database, split=config.split, variant=variant, limit=config.limit_tasks
        )
    tasks = sorted(tasks, key=lambda t: t.task_id)[: config.limit_tasks]
    if not tasks:
        raise TrainingError(f"no kept task with split={config.split!r} for GRPO")
    targets = load_targets(driver, database, [t.task_id for t in tasks])
    if config.seed_actions and tools is None:
        tools = grpo_tools(driver, database, config)
    records = []
    for task in tasks:
        named = [t for t in targets.get(task.task_id, []) if t.names]
        names = [list(t.names) for t in named]
        index = {t.target_id: i for i, t in enumerate(named)}
        owners = [[index[o] for o in t.owners if o in index] for t in named]
        if not names:
            names = [[item] for item in gold_names(task.answer_json)]
        if not names:
            continue
        prompt = [
            {"role": "system", "content": system_prompt(config.date or None)},
            {"role": "user", "content": task.question},
        ]
        if config.seed_actions:
            prompt += seed_turns(tools, task.question, tuple(config.seed_actions))
        records.append(
            {
                "prompt": prompt,
                "targets": names,
                "owners": owners if len(owners) == len(names) else [[] for _ in names],
                "gold": task.answer_json or "",
                "task_id": task.task_id,
            }
        )
    return records


def grpo_tools(driver: neo4j.Driver, database: str | None, config: GRPORunConfig) -> Any:
    """The agent's real tools (cached in the graph), with GRPO's result count."""
    from seekgraph.agent.policies import make_tools

    return make_tools(driver, database, config)


def run_grpo(
    config: GRPORunConfig,
    *,
    driver: neo4j.Driver,
    database: str | None,
    out_root: Path = Path("out"),
    echo: Any = print,
) -> GRPOResult:
    """Build prompts from the graph, train with GRPOTrainer, record the TrainingRun."""
    offline_and_quiet()
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    tools = grpo_tools(driver, database, config)
    records = task_prompts(driver, database, config, tools)
    if not records:
        raise TrainingError("no task has targets or a gold answer to reward against")
    model_path = resolve_model(config.model)
    cfg = as_dict(config)
    task_ids = [r["task_id"] for r in records]
    rid = runs.run_id(
        "grpo", {k: v for k, v in cfg.items() if k != "output_dir"}, ",".join(task_ids)
    )
    output_dir = runs.output_folder(config.output_dir, out_root, rid)
    runs.start_run(
        driver, database, run_id=rid, kind="grpo", config=cfg, dataset_id="", output_dir=output_dir
    )
    runs.link_tasks(driver, database, rid, task_ids)
    rollout_stats: dict[str, Any] = {"batches": []}
    metrics: dict[str, Any] = {
        "tasks": len(records),
        "model": str(model_path),
        "mode": "multi-turn through the agent environment (TRL rollout_func, env_mask)",
        "seed_actions": list(config.seed_actions),
        "max_rounds": config.max_rounds,
        "rollouts": rollout_stats["batches"],  # per generation batch: rounds, calls, ...
    }
    checkpoints: list[str] = []
    callback = runs.progress_callback(driver, database, rid, metrics, checkpoints)
    trainer = build_trainer(config, model_path, records, tools, output_dir, callback, rollout_stats)
    echo(f"GRPO run {rid}: {len(records)} task prompts, model {model_path}")
    seconds, final = runs.train_and_record(
        trainer, driver, database, run_id=rid, metrics=metrics, checkpoints=checkpoints
    )
    rewards = [s["reward"] for s in metrics.get("steps", []) if "reward" in s]
    steps = int(trainer.state.global_step)
    return GRPOResult(rid, output_dir, final, steps, rewards, len(records), seconds, metrics)


def build_trainer(
    config: GRPORunConfig,
    model_path: Path,
    records: list[dict[str, Any]],
    tools: Any,
    output_dir: Path,
    callback: Any,
    rollout_stats: dict[str, Any],
) -> Any:
    """A GRPOTrainer whose rollouts run through the agent's tools (`seekgraph.training.multiturn`)."""
    import torch
    from datasets import Dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer

    from seekgraph.training.multiturn import EpisodeConfig, make_rollout_func
    from seekgraph.training.rewards import make_trl_rewards

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
        # TRL turns checkpointing on unless told: about 20% slower steps, for memory that the
        # small models trained here do not need
        activation_checkpointing=False,
    )
    episode = EpisodeConfig(
        max_rounds=config.max_rounds,
        turn_max_tokens=config.turn_max_tokens,
        max_completion_tokens=config.max_completion_length,
        observation_chars=config.observation_chars,
    )
    return GRPOTrainer(
        model=model,
        reward_funcs=make_trl_rewards(config.omega),  # type: ignore[arg-type]
        args=args,
        train_dataset=Dataset.from_list(records),
        processing_class=tokenizer,
        callbacks=[callback],
        rollout_func=make_rollout_func(tools, episode, config.temperature, rollout_stats),
    )
