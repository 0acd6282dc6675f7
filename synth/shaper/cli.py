"""`seekgraph synth shaper import|seeds|expand|export`: WebShaper KP tasks from the command line."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from graphdb.stages import StageReport, save_report
from seekgraph.context import AppContext, pass_app
from synth.errors import SynthError

if TYPE_CHECKING:
    from common.llm.base import LLMBackend


def _finish(app: AppContext, report: StageReport) -> None:
    save_report(app.driver(), report, app.database)
    for line in report.summary_lines():
        click.echo(line)


def _section(app: AppContext, **flags: Any) -> dict[str, Any]:
    """Flag > config file ``[shaper]`` > default."""
    merged = app.section("shaper")
    merged.update({k: v for k, v in flags.items() if v is not None})
    return merged


@click.group()
def shaper() -> None:
    """WebShaper: formal Knowledge-Projection tasks, executed and expanded by Cypher."""


@shaper.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@pass_app
def import_cmd(app: AppContext, path: Path) -> None:
    """Import published rows {id, question, answer, formalization, urls} and execute them."""
    from synth.shaper.stages import import_published

    try:
        report = import_published(app.driver(), app.database, path)
    except SynthError as e:
        raise click.ClickException(str(e)) from e
    _finish(app, report)


@shaper.command()
@click.option("--n", "n_seeds", type=int, help="Random-walk attempts [config n_seeds; 30].")
@click.option("--seed", type=int, help="RNG seed of the run [config seed; 0].")
@click.option("--max-answers", type=int, help="Largest answer set of a seed [3].")
@pass_app
def seeds(app: AppContext, n_seeds: int | None, seed: int | None, max_answers: int | None) -> None:
    """Seed tasks from random walks over page links and facts."""
    from synth.shaper.seeds import SeedConfig, make_seeds
    from synth.shaper.stages import _config

    config = _config(SeedConfig, _section(app, n_seeds=n_seeds, seed=seed, max_answers=max_answers))
    try:
        report = make_seeds(app.driver(), app.database, config, progress=True)
    except SynthError as e:
        raise click.ClickException(str(e)) from e
    _finish(app, report)


@shaper.command()
@click.option("--layers", type=int, help="Expansion layers [config layers; 3].")
@click.option("--seed", type=int, help="RNG seed of the run [0].")
@click.option(
    "--llm",
    "llm_spec",
    help="Paraphrase accepted questions with this LLM backend "
    "spec (e.g. transformers); the template question stays when a check fails.",
)
@pass_app
def expand(app: AppContext, layers: int | None, seed: int | None, llm_spec: str | None) -> None:
    """Layer-wise expansion of the seeds, every step validated by queries."""
    from synth.shaper.expand import ExpandConfig, expand_tasks
    from synth.shaper.stages import _config, paraphrase_tasks

    config = _config(ExpandConfig, _section(app, layers=layers, seed=seed))
    try:
        report = expand_tasks(app.driver(), app.database, config, progress=True)
    except SynthError as e:
        raise click.ClickException(str(e)) from e
    _finish(app, report)
    backend = _load_backend(llm_spec)
    if backend is not None:
        _finish(app, paraphrase_tasks(app.driver(), app.database, backend))


def _load_backend(spec: str | None) -> LLMBackend | None:
    if not spec:
        return None
    try:
        registry = importlib.import_module("common.llm.registry")
        backend: LLMBackend = registry.load_backend(spec)
    except (ImportError, AttributeError) as e:
        raise click.ClickException(f"no LLM backend registry to load {spec!r}: {e}") from e
    return backend


@shaper.command()
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--source",
    type=click.Choice(["published", "seed", "expanded"]),
    help="Only tasks of this source.",
)
@click.option("--split", type=click.Choice(["train", "heldout"]), help="Only this split.")
@pass_app
def export(app: AppContext, path: Path, source: str | None, split: str | None) -> None:
    """Write KP tasks in the published JSONL format (plus their split)."""
    from synth.shaper.stages import export_tasks

    n = export_tasks(app.driver(), app.database, path, source=source, split=split)
    click.echo(f"exported {n} tasks to {path}")


@shaper.command()
@click.option(
    "--source",
    "sources",
    multiple=True,
    default=("seed", "expanded"),
    show_default=True,
    type=click.Choice(["published", "seed", "expanded"]),
    help="Which tasks to delete (repeatable).",
)
@click.confirmation_option(prompt="Delete these KP tasks and their rejections?")
@pass_app
def reset(app: AppContext, sources: tuple[str, ...]) -> None:
    """Delete KP tasks (default: seeds and expansions) to re-make them with other settings."""
    from synth.shaper.store import delete_tasks

    delete_tasks(app.driver(), app.database, list(sources))
    click.echo(f"deleted KP tasks of sources {', '.join(sources)}")
