"""The training stages: prune, dataset, and (on request) train-sft, train-grpo and eval."""

from __future__ import annotations

from seekgraph.graphdb.stages import Stage, StageContext, StageReport
from seekgraph.training.config import DatasetSpec, EvalConfig, GRPORunConfig, SFTRunConfig
from seekgraph.training.experiment_config import ExperimentConfig
from seekgraph.training.stategraph.prune_config import PruneConfig


def run_prune(ctx: StageContext, config: PruneConfig) -> StageReport:
    """WebClipper pruning of the kept trajectories (resumable: finished ones are skipped)."""
    from seekgraph.graphdb.leases import Leases
    from seekgraph.training.stategraph.prune import prune_rollouts

    with ctx.progress("prune (trajectories)") as bar:
        result = prune_rollouts(
            ctx.driver,
            ctx.database,
            config,
            on_start=lambda n: setattr(bar, "total", n),
            on_progress=bar.update,
            on_doing=bar.doing,
            leases=Leases(ctx.driver, ctx.database, "prune", seconds=config.lease_seconds),
        )
    limit = "all" if config.rewrite_limit < 0 else config.rewrite_limit
    result.report.notes["trajectories rewritten by an LLM"] = (
        f"{result.rewrite_calls} (rewrite_backend {config.rewrite_backend}, rewrite_limit {limit})"
        if config.rewrite_backend
        else "none: thoughts rewritten without a model ([prune] rewrite_backend sets an LLM)"
    )
    return result.report


def run_dataset(ctx: StageContext, config: DatasetSpec) -> StageReport:
    """A training dataset with provenance from the graph's kept/pruned trajectories."""
    from seekgraph.training.datasets import build_dataset

    return build_dataset(ctx.driver, ctx.database, config, ctx.out_dir / "datasets").report


def run_train_sft(ctx: StageContext, config: SFTRunConfig) -> StageReport:
    """SFT with TRL on a dataset (default: the pipeline's); resumes an interrupted run."""
    from seekgraph.training.sft import run_sft

    report = StageReport("train-sft")
    result = run_sft(
        config, driver=ctx.driver, database=ctx.database, out_root=ctx.out_dir, echo=ctx.echo
    )
    if result.skipped:
        report.skip(result.steps)
    else:
        report.keep(result.steps)
    report.notes["run"] = result.run_id
    if result.losses:
        report.notes["loss"] = f"{result.losses[0]:.3f} -> {result.losses[-1]:.3f}"
    report.notes["steps_per_second"] = round(result.steps_per_second, 3)
    report.notes["checkpoint"] = str(result.checkpoint)
    if result.dropped_too_long:
        report.notes["dropped_too_long"] = result.dropped_too_long
    return report


def run_train_grpo(ctx: StageContext, config: GRPORunConfig) -> StageReport:
    """Multi-turn GRPO through the agent's tools; soft-F, ISE and format rewards."""
    from seekgraph.training.grpo import run_grpo

    report = StageReport("train-grpo")
    result = run_grpo(
        config, driver=ctx.driver, database=ctx.database, out_root=ctx.out_dir, echo=ctx.echo
    )
    report.keep(result.steps)
    report.notes["run"] = result.run_id
    report.notes["tasks"] = result.tasks
    report.notes["mean reward per step"] = ", ".join(f"{x:.3f}" for x in result.rewards)
    report.notes["checkpoint"] = str(result.checkpoint)
    return report


def run_eval(ctx: StageContext, config: EvalConfig) -> StageReport:
    """Roll a checkpoint out on held-out tasks, score, write an Evaluation node."""
    from seekgraph.training.evaluation import evaluate_checkpoint

    report = StageReport("eval")
    result = evaluate_checkpoint(ctx.driver, ctx.database, config, echo=ctx.echo)
    report.keep(result.n_tasks)
    report.notes["evaluation"] = f"{result.eval_id} ({result.run_id or 'no training run'})"
    report.notes["scores"] = result.summary()
    return report


def run_experiment(ctx: StageContext, config: ExperimentConfig) -> StageReport:
    """The WebLeaper and WebClipper comparisons on a student (`seekgraph.training.experiments`)."""
    from seekgraph.training.experiment_tables import experiment_report
    from seekgraph.training.experiments import run_experiment as run

    result = run(ctx.driver, ctx.database, config, ctx.out_dir, echo=ctx.echo)
    ctx.echo(result.tables)
    return experiment_report(result)


PRUNE = Stage(
    "prune",
    "WebClipper: state graphs, minimum necessary DAG (Cypher + search), 2-of-3 vote, thought "
    "rewriting; pruned rollouts next to their originals",
    PruneConfig,
    "prune",
    run_prune,
)
DATASET = Stage(
    "dataset",
    "training dataset from kept/pruned trajectories (TRL messages, card, Dataset node)",
    DatasetSpec,
    "dataset",
    run_dataset,
)
TRAIN_SFT = Stage(
    "train-sft",
    "SFT with TRL (default: 10 CPU steps of SmolLM2 on the pipeline's dataset)",
    SFTRunConfig,
    "train-sft",
    run_train_sft,
    optional=True,
)
TRAIN_GRPO = Stage(
    "train-grpo",
    "multi-turn GRPO through the agent's search/visit tools (soft-F, ISE, format rewards)",
    GRPORunConfig,
    "train-grpo",
    run_train_grpo,
    optional=True,
)
EVAL = Stage(
    "eval",
    "the agent evaluation of a checkpoint on held-out tasks, as an Evaluation node",
    EvalConfig,
    "eval",
    run_eval,
    optional=True,
)
EXPERIMENT = Stage(
    "experiment",
    "the papers' tables in miniature: students SFT'd on filtered / unfiltered / random / pruned "
    "teacher data, evaluated on held-out tasks (hours on CPU; run by name only)",
    ExperimentConfig,
    "experiment",
    run_experiment,
    optional=True,
    manual=True,
)
