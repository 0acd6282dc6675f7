"""`seekgraph export ...`: artifacts of the graph as files."""

from __future__ import annotations

from pathlib import Path

import click

from seekgraph.cli.context import AppContext, pass_app

VARIANTS = ("basic", "union", "reverse-union")


@click.group()
def export() -> None:
    """Export tasks and trajectories from the graph to files."""


@export.command("tasks")
@click.option(
    "--kind",
    type=click.Choice(["leaper", "shaper"]),
    default="leaper",
    show_default=True,
    help="WebLeaper tasks (JSONL with targets and provenance) or WebShaper KP tasks "
    "(the published {id, question, answer, formalization, urls} format).",
)
@click.option(
    "--variant",
    "variants",
    multiple=True,
    type=click.Choice(VARIANTS),
    help="Leaper: only these variants (repeatable).",
)
@click.option(
    "--source",
    type=click.Choice(["published", "seed", "expanded"]),
    help="Shaper: only tasks of this source.",
)
@click.option("--split", type=click.Choice(["train", "heldout"]), help="Only this split.")
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The JSONL file [default: out/<kind>_tasks.jsonl].",
)
@pass_app
def tasks(
    app: AppContext,
    kind: str,
    variants: tuple[str, ...],
    source: str | None,
    split: str | None,
    out_path: Path | None,
) -> None:
    """Write kept tasks as JSONL, one task a line."""
    path = out_path or Path("out") / f"{kind}_tasks.jsonl"
    if kind == "leaper":
        from seekgraph.synth.leaper.export import export_tasks

        n = export_tasks(app.driver(), app.database, path, list(variants) or None, split)
    else:
        from seekgraph.synth.shaper.stages import export_tasks as export_kp

        n = export_kp(app.driver(), app.database, path, source=source, split=split)
    click.echo(f"wrote {n} {kind} tasks to {path}")


@export.command("trajectories")
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("out/trajectories.jsonl"),
    show_default=True,
)
@click.option("--all", "export_all", is_flag=True, help="Also trajectories the filter rejected.")
@click.option(
    "--policy",
    type=click.Choice(["teacher", "gold-walker", "llm", "student"]),
    help="Only this policy.",
)
@pass_app
def trajectories(app: AppContext, out_path: Path, export_all: bool, policy: str | None) -> None:
    """Write trajectories as Tongyi-DeepResearch JSONL {question, answer, messages, ...}."""
    from seekgraph.agent.export import export_jsonl

    n = export_jsonl(app.driver(), app.database, out_path, kept_only=not export_all, policy=policy)
    click.echo(f"wrote {n} trajectories to {out_path}")
