"""`seekgraph dataset build`, `seekgraph train sft|grpo`, `seekgraph eval`, `seekgraph trained-on`.

Heavy imports (torch, transformers, trl, datasets) happen inside the commands.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from graphdb.errors import GraphDBError, SeekgraphError
from graphdb.stages import save_report
from seekgraph.context import AppContext, pass_app
from training.errors import TrainingError

CONFIG = click.Path(exists=True, dir_okay=False, path_type=Path)


def _fail(e: Exception) -> click.ClickException:
    return click.ClickException(str(e))


@click.group()
def dataset() -> None:
    """Training datasets built from the graph's trajectories (TRL conversational format)."""


@dataset.command("build")
@click.option(
    "--config",
    "config_file",
    type=CONFIG,
    help="TOML/YAML dataset spec (top level or a [dataset] section).",
)
@click.option("--name", help="Dataset name (folder prefix).")
@click.option(
    "--mix",
    type=click.Choice(["auto", "filtered", "eff", "hybrid"]),
    help="eff: pruned only; hybrid: pruned + unpruned hard of other tasks.",
)
@click.option("--variant", "variants", multiple=True, help="Only these task variants.")
@click.option("--min-isr", type=float, help="ISR threshold.")
@click.option("--min-ise", type=float, help="ISE threshold.")
@click.option("--min-accuracy", type=float, help="'Correct': accuracy at least this.")
@click.option("--limit", type=int, help="At most this many examples.")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("out/datasets"),
    show_default=True,
)
@click.option("--no-hf", is_flag=True, help="Skip the Hugging Face datasets folder.")
@pass_app
def build(
    app: AppContext,
    config_file: Path | None,
    name: str | None,
    mix: str | None,
    variants: tuple[str, ...],
    min_isr: float | None,
    min_ise: float | None,
    min_accuracy: float | None,
    limit: int | None,
    out_dir: Path,
    no_hf: bool,
) -> None:
    """Select trajectories by filters and mix; write JSONL + HF folder + card; link in the graph."""
    from training.config import DatasetSpec, load_config
    from training.datasets import build_dataset

    overrides: dict[str, Any] = {
        "name": name,
        "mix": mix,
        "variants": list(variants) or None,
        "min_isr": min_isr,
        "min_ise": min_ise,
        "min_accuracy": min_accuracy,
        "limit": limit,
    }
    try:
        spec = load_config(DatasetSpec, config_file, section="dataset", overrides=overrides)
        driver = app.driver()
        built = build_dataset(driver, app.database, spec, out_dir, hf_folder=not no_hf)
        save_report(driver, built.report, app.database)
    except (TrainingError, GraphDBError) as e:
        raise _fail(e) from e
    for line in built.report.summary_lines():
        click.echo(line)
    click.echo(
        f"dataset {built.dataset_id}: {built.n_examples} examples ({built.mix}) "
        f"in {built.path}\n  train.jsonl sha256 {built.jsonl_sha256}"
    )


@click.group()
def train() -> None:
    """Fine-tune on the graph's data with TRL (SFT on datasets, GRPO on tasks)."""


@train.command("sft")
@click.option(
    "--config",
    "config_file",
    type=CONFIG,
    required=True,
    help="TOML/YAML SFT config (see configs/sft_cpu_smollm2.toml).",
)
@click.option("--dataset", "dataset_key", help="Dataset folder or Dataset id/name (overrides).")
@click.option("--max-steps", type=int, help="Override max_steps.")
@click.option("--output-dir", help="Override output_dir.")
@pass_app
def sft(
    app: AppContext,
    config_file: Path,
    dataset_key: str | None,
    max_steps: int | None,
    output_dir: str | None,
) -> None:
    """SFT with loss on assistant turns only; checkpoints; re-running resumes."""
    from training.config import SFTRunConfig, load_config
    from training.sft import run_sft

    try:
        config = load_config(
            SFTRunConfig,
            config_file,
            section="sft",
            overrides={"dataset": dataset_key, "max_steps": max_steps, "output_dir": output_dir},
        )
        result = run_sft(config, driver=app.driver(), database=app.database, echo=click.echo)
    except (TrainingError, GraphDBError, SeekgraphError) as e:
        raise _fail(e) from e
    losses = ", ".join(f"{x:.3f}" for x in result.losses[:3])
    click.echo(
        f"run {result.run_id}: {result.steps} steps in {result.seconds:.1f}s "
        f"({result.steps_per_second:.3f} steps/s); loss {losses} … "
        f"{result.losses[-1]:.3f}"
        if result.losses
        else ""
    )
    click.echo(f"checkpoint: {result.checkpoint}")


@train.command("grpo")
@click.option(
    "--config",
    "config_file",
    type=CONFIG,
    required=True,
    help="TOML/YAML GRPO config (see configs/grpo_cpu_smollm2.toml).",
)
@click.option("--max-steps", type=int, help="Override max_steps.")
@click.option("--max-rounds", type=int, help="Override max_rounds (policy turns per rollout).")
@click.option("--output-dir", help="Override output_dir.")
@pass_app
def grpo(
    app: AppContext,
    config_file: Path,
    max_steps: int | None,
    max_rounds: int | None,
    output_dir: str | None,
) -> None:
    """Multi-turn GRPO through the agent's search/visit tools; soft-F, ISE and format rewards.

    Rollouts run the policy for up to max_rounds turns; its tool calls are executed on the
    graph's offline web and the tool responses are context only (no loss)."""
    from training.config import GRPORunConfig, load_config
    from training.grpo import run_grpo

    try:
        config = load_config(
            GRPORunConfig,
            config_file,
            section="grpo",
            overrides={"max_steps": max_steps, "max_rounds": max_rounds, "output_dir": output_dir},
        )
        result = run_grpo(config, driver=app.driver(), database=app.database, echo=click.echo)
    except (TrainingError, GraphDBError, SeekgraphError) as e:
        raise _fail(e) from e
    rewards = ", ".join(f"{x:.3f}" for x in result.rewards)
    click.echo(
        f"run {result.run_id}: {result.steps} steps on {result.tasks} tasks in "
        f"{result.seconds:.1f}s; mean reward per step: {rewards}"
    )
    click.echo(f"checkpoint: {result.checkpoint}")


@click.command("eval")
@click.option(
    "--checkpoint",
    required=True,
    help="A checkpoint folder, or 'smollm2' for the packaged base model.",
)
@click.option("--split", default="heldout", show_default=True)
@click.option("--limit", "limit_tasks", type=int, default=10, show_default=True)
@click.option("--max-rounds", type=int, default=4, show_default=True)
@click.option("--max-tokens", type=int, default=160, show_default=True)
@pass_app
def eval_command(
    app: AppContext, checkpoint: str, split: str, limit_tasks: int, max_rounds: int, max_tokens: int
) -> None:
    """Run the agent evaluation on a checkpoint and write an Evaluation node."""
    from training.evaluation import EvalSettings, evaluate_checkpoint

    settings = EvalSettings(
        split=split, limit_tasks=limit_tasks, max_rounds=max_rounds, max_tokens=max_tokens
    )
    try:
        result = evaluate_checkpoint(
            app.driver(), app.database, checkpoint, settings, echo=click.echo
        )
    except (TrainingError, GraphDBError, SeekgraphError) as e:
        raise _fail(e) from e
    click.echo(f"{result.eval_id} ({result.run_id or 'no training run'}): {result.summary()}")


@click.command("trained-on")
@click.argument("checkpoint")
@click.option(
    "--dropped",
    is_flag=True,
    help="List the dataset examples the run did NOT train on, with the reason, instead.",
)
@pass_app
def trained_on(app: AppContext, checkpoint: str, dropped: bool) -> None:
    """Which trajectories trained CHECKPOINT (a checkpoint path or a run id).

    Only the examples the run used are listed (those dropped as longer than `max_length` are
    not); `--dropped` lists those instead."""
    from training.runs import checkpoint_trajectories, dropped_examples

    try:
        if dropped:
            left_out = dropped_examples(app.driver(), app.database, checkpoint)
            for r in left_out:
                click.echo(f"{r['rollout_id']}\t{r['reason']}\t{r['tokens']} tokens")
            click.echo(f"{len(left_out)} examples dropped")
            return
        rows = checkpoint_trajectories(app.driver(), app.database, checkpoint)
    except GraphDBError as e:
        raise _fail(e) from e
    if not rows:
        raise click.ClickException(f"no training run with checkpoint {checkpoint!r}")
    for r in rows:
        extra = f" (pruned from {r['original_id']})" if r["pruned"] else ""
        click.echo(f"{r['rollout_id']}\t{r['task_id']}\t{r['variant']}{extra}")
    click.echo(
        f"{len(rows)} trajectories; run {rows[0]['run_id']}, dataset {rows[0]['dataset_id']}"
    )
