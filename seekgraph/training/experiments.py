"""`seekgraph experiment`: the WebLeaper and WebClipper tables in miniature, on a real student.

One command runs the whole comparison on the graph it is given (tasks must exist, split into
``train`` and ``heldout``):

1. teacher rollouts of the train tasks under the experiment's tool settings (short
   observations, so a small model's context holds them; `rollouts_per_task` each, with
   recorded detours), scored, ISR/ISE-filtered and pruned (WebClipper, no thought rewriting
   unless asked), all through the ordinary stages' functions;
2. one dataset per arm, every arm from the same rollouts:

   - ``filtered``: trajectories the ISR/ISE filter kept (WebLeaper's data; also WebClipper's
     ``unpruned`` arm), unpruned;
   - ``unfiltered``: every answered trajectory, unpruned;
   - ``random``: a seeded random subset of ``unfiltered`` as large as ``filtered`` (is it the
     filter or the smaller size?); with `equal_examples` (the default) every arm is cut to one
     size, so ``unfiltered`` is that subset and ``random`` is not trained a second time;
   - ``pruned``: the pruned versions of the filtered trajectories (WebClipper's Eff);
   - ``hybrid`` (on request): WebClipper's Hybrid mix;

3. per arm and seed an SFT run with the same budget (steps, batch, learning rate, length) and,
   unless `equal_examples` is off, the same number of examples (the smallest arm's count of
   examples that fit `max_length`; each arm takes the first of its seeded order), then the
   agent evaluation of its checkpoint on the same held-out tasks (`Evaluation` nodes), and the
   untrained model once as the reference row;
4. a table per paper with the mean and the range over seeds, written to
   ``<out>/experiments/<name>.md`` and linked in the graph:
   ``(:Experiment)-[:HAS_EVALUATION {arm, seed}]->(:Evaluation)``.

Every step is resumable: done rollouts, finished prunes, built datasets, finished training runs
and finished evaluation rollouts are skipped, so a killed experiment is simply re-run. The
defaults fit this project's 2-core CPU with SmolLM2-135M; `model`, `device`, `eval_backend` and
the budget take a bigger model on a GPU (or a `vllm serve` endpoint) by configuration.

This module runs the comparison; its settings are `experiment_config`, its tables
`experiment_tables`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import neo4j

from seekgraph.agent.config import FilterConfig, RolloutConfig
from seekgraph.graphdb import cypher
from seekgraph.graphdb.ids import stable_id
from seekgraph.training.config import DatasetSpec, EvalConfig, SFTRunConfig
from seekgraph.training.errors import TrainingError
from seekgraph.training.experiment_config import ARMS, ExperimentConfig
from seekgraph.training.experiment_tables import ArmResult, ExperimentResult, render_tables


def arm_spec(
    arm: str, seed: int, teacher_model: str, variants: tuple[str, ...], size: int
) -> DatasetSpec:
    """The dataset of one arm: teacher trajectories of the train split under the experiment's
    settings (`teacher_model` names them), ordered by `seed`; `size` bounds ``random``."""
    common = DatasetSpec(
        name=f"exp-{arm}-s{seed}",
        splits=("train",),
        policies=("teacher",),
        models=(teacher_model,),
        variants=variants,
        seed=seed,
        hf_folder=False,
    )
    if arm == "filtered":
        return replace(common, mix="filtered", kept_only=True, pruned=False)
    if arm == "unfiltered":
        return replace(common, mix="filtered", kept_only=False, pruned=False)
    if arm == "random":
        return replace(common, mix="filtered", kept_only=False, pruned=False, limit=size)
    if arm == "pruned":
        return replace(common, mix="eff", kept_only=True)
    if arm == "hybrid":
        return replace(common, mix="hybrid", kept_only=True)
    raise TrainingError(f"unknown arm {arm!r}; arms are {', '.join(ARMS)}")


def _tasks(
    driver: neo4j.Driver, database: str | None, config: ExperimentConfig, split: str, limit: int
) -> list[Any]:
    from seekgraph.agent.rollouts import load_tasks

    tasks = [
        t
        for t in load_tasks(driver, database, split=split)
        if not config.variants or t.variant in config.variants
    ]
    # a seeded hash order, so a limit takes every variant in proportion, not the first ids
    tasks.sort(key=lambda t: hashlib.sha1(f"{config.task_seed}:{t.task_id}".encode()).hexdigest())
    return tasks[:limit] if limit else tasks


def teacher_data(
    driver: neo4j.Driver,
    database: str | None,
    config: ExperimentConfig,
    echo: Callable[[str], None],
) -> tuple[str, dict[str, Any]]:
    """Teacher rollouts of the train tasks, scored, filtered and pruned; (model name, counts)."""
    from seekgraph.agent.filtering import filter_rollouts
    from seekgraph.agent.policies import make_policy
    from seekgraph.agent.rollouts import run_rollouts
    from seekgraph.agent.scoring import score_rollouts
    from seekgraph.training.stategraph.prune import prune_rollouts
    from seekgraph.training.stategraph.prune_config import PruneConfig

    tasks = _tasks(driver, database, config, "train", config.train_tasks)
    if not tasks:
        raise TrainingError("no kept train task to roll the teacher out on")
    settings = RolloutConfig(
        **config.tool_settings(),
        policy="teacher",
        detour_rate=config.detour_rate,
        max_rounds=config.teacher_max_rounds,
        n=config.rollouts_per_task,
    )
    policy = make_policy(driver, database, settings)
    echo(f"teacher {policy.model}: {len(tasks)} train tasks x {config.rollouts_per_task}")
    rollouts = run_rollouts(
        driver, database, tasks, policy, n=config.rollouts_per_task, concurrency=config.concurrency
    )
    score_rollouts(driver, database, policy="teacher")
    filtered = filter_rollouts(driver, database, FilterConfig(export=False), policy="teacher")
    ids = [
        r["rollout_id"]
        for r in cypher.read(
            driver, "training/find_model_rollouts", database=database, model=policy.model
        )
    ]
    pruned = prune_rollouts(
        driver,
        database,
        PruneConfig(
            rewrite_backend="transformers" if config.rewrite_limit != 0 else "",
            rewrite_limit=config.rewrite_limit,
            rollout_ids=tuple(ids),
        ),
    ).report
    counts = cypher.read(
        driver, "training/count_model_rollouts", database=database, model=policy.model
    )[0]
    data = {
        "teacher": policy.model,
        "train_tasks": len(tasks),
        "rollouts": rollouts.kept + rollouts.skipped,
        "filter_rejections": dict(filtered.reasons),
        "prune": {"pruned": pruned.kept, "skipped": pruned.skipped, **dict(pruned.reasons)},
        **counts,
    }
    return policy.model, data


def _sft_config(config: ExperimentConfig, dataset: Path, seed: int) -> SFTRunConfig:
    return SFTRunConfig(
        model=config.model,
        dataset=str(dataset),
        max_length=config.max_length,
        per_device_train_batch_size=config.per_device_train_batch_size,
        gradient_accumulation_steps=config.gradient_accumulation_steps,
        learning_rate=config.learning_rate,
        lr_scheduler_type=config.lr_scheduler_type,
        warmup_steps=config.warmup_steps,
        max_steps=config.max_steps,
        logging_steps=5,
        save_steps=max(config.max_steps // 2, 1),
        save_total_limit=1,
        seed=seed,
        dtype=config.dtype,
        device=config.device,
        mixed_bf16=config.mixed_bf16,
    )


def _eval_config(config: ExperimentConfig, checkpoint: str) -> EvalConfig:
    return EvalConfig(
        **config.tool_settings(),
        checkpoint=checkpoint,
        backend=config.eval_backend,
        device=config.device,
        dtype="bfloat16" if config.mixed_bf16 else "float32",
        split="heldout",
        limit_tasks=max(config.eval_tasks, 1),
        max_rounds=config.max_rounds,
        max_tokens=config.max_tokens,
        max_context_tokens=config.max_context_tokens,
        max_seconds=config.max_seconds,
        concurrency=config.concurrency,
    )


def run_experiment(
    driver: neo4j.Driver,
    database: str | None,
    config: ExperimentConfig,
    out_dir: Path,
    *,
    echo: Callable[[str], None] = print,
) -> ExperimentResult:
    """Run (or resume) the whole comparison; see the module docstring."""
    from seekgraph.training.datasets import build_dataset
    from seekgraph.training.evaluation import evaluate_checkpoint
    from seekgraph.training.sft import count_fitting, run_sft

    teacher, data = teacher_data(driver, database, config, echo)
    eval_ids = [t.task_id for t in _tasks(driver, database, config, "heldout", config.eval_tasks)]
    if not eval_ids:
        raise TrainingError("no kept held-out task to evaluate on (split=heldout)")
    data["eval_tasks"] = len(eval_ids)
    folder = out_dir / "experiments" / config.name
    experiment_id = stable_id("experiment", config.name, _canonical(config))
    trained = []  # every run trains before any evaluation, so a run can stop after training
    data["examples_per_arm"] = {}
    arms = _ordered(config.arms)
    if config.equal_examples and {"random", "unfiltered"} <= set(arms):
        # at equal sizes both are the first examples of the unfiltered data in the seed's
        # order: the same training run twice
        arms.remove("random")
        data["random_is_unfiltered"] = True
        echo(f"experiment {experiment_id}: at equal sizes random = unfiltered; trained once")
    for seed in config.seeds:
        size = 0
        datasets = {}
        for arm in arms:
            spec = arm_spec(arm, seed, teacher, config.variants, size)
            datasets[arm] = build_dataset(driver, database, spec, folder / "datasets")
            if arm == "filtered":
                size = datasets[arm].n_examples
        limit = 0
        if config.equal_examples:
            fitting = {
                arm: count_fitting(_sft_config(config, built.path, seed), driver, database)
                for arm, built in datasets.items()
            }
            arm, limit = min(fitting.items(), key=lambda item: item[1])
            if limit == 0:
                raise TrainingError(
                    f"arm {arm} (seed {seed}) has no example that fits max_length="
                    f"{config.max_length}: no arm can be trained on as many as the others"
                )
            data["examples_per_arm"][str(seed)] = limit
            echo(f"experiment {experiment_id}: seed {seed}: every arm trains on {limit} examples")
        for arm, built in datasets.items():
            echo(f"experiment {experiment_id}: {arm} seed {seed} ({built.n_examples} examples)")
            sft = run_sft(
                replace(_sft_config(config, built.path, seed), limit_examples=limit),
                driver=driver,
                database=database,
                out_root=folder,
                echo=echo,
            )
            trained.append((arm, seed, built, sft))
    echo(f"experiment {experiment_id}: evaluating the base model on {len(eval_ids)} tasks")
    base = evaluate_checkpoint(
        driver, database, _eval_config(config, config.model), task_ids=eval_ids, echo=echo
    )
    _link(driver, database, experiment_id, config, base.eval_id, "base", -1)
    results: list[ArmResult] = []
    for arm, seed, built, sft in trained:
        evaluation = evaluate_checkpoint(
            driver,
            database,
            _eval_config(config, str(sft.checkpoint)),
            task_ids=eval_ids,
            echo=echo,
        )
        _link(driver, database, experiment_id, config, evaluation.eval_id, arm, seed)
        results.append(
            ArmResult(
                arm,
                seed,
                built.dataset_id,
                sft.examples,
                sft.dropped_too_long,
                sft.run_id,
                str(sft.checkpoint),
                evaluation.eval_id,
                evaluation.metrics(),
                sft.losses,
                sft.seconds,
            )
        )
        echo(f"  {arm} seed {seed}: {evaluation.summary()}")
    tables = render_tables(config, base.metrics(), results, data)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{config.name}.md"
    path.write_text(tables, encoding="utf-8")
    (folder / f"{config.name}.json").write_text(
        json.dumps(
            {
                "experiment_id": experiment_id,
                "config": _canonical(config),
                "data": data,
                "base": base.metrics(),
                "arms": [r.__dict__ for r in results],
            },
            indent=2,
            sort_keys=True,
            default=str,
        ),
        encoding="utf-8",
    )
    return ExperimentResult(experiment_id, base.metrics(), results, data, tables, path)


def _ordered(arms: tuple[str, ...]) -> list[str]:
    """Arms in a fixed order, ``filtered`` first (``random`` takes its size)."""
    wanted = set(arms) | ({"filtered"} if "random" in arms else set())
    return [a for a in ARMS if a in wanted]


def _canonical(config: ExperimentConfig) -> dict[str, Any]:
    from seekgraph.training.config import as_dict

    return as_dict(config)


def _link(
    driver: neo4j.Driver,
    database: str | None,
    experiment_id: str,
    config: ExperimentConfig,
    eval_id: str,
    arm: str,
    seed: int,
) -> None:
    cypher.run_batches(
        driver,
        "training/merge_experiment_evaluations",
        [{"eval_id": eval_id, "arm": arm, "seed": seed}],
        database=database,
        params={
            "experiment_id": experiment_id,
            "name": config.name,
            "config_json": json.dumps(_canonical(config), sort_keys=True),
        },
    )
