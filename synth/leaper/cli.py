"""`seekgraph synth leaper` (trees and the three task variants) and `seekgraph export tasks`."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from graphdb.stages import StageReport, save_report
from seekgraph.context import AppContext, pass_app
from synth.errors import SynthError

if TYPE_CHECKING:
    from common.llm.base import LLMBackend

VARIANTS = ("basic", "union", "reverse-union")


def _load_backend(spec: str | None) -> LLMBackend | None:
    if not spec:
        return None
    try:
        registry = importlib.import_module("common.llm.registry")
        backend: LLMBackend = registry.load_backend(spec)
    except (ImportError, AttributeError) as e:
        raise click.ClickException(f"no LLM backend registry to load {spec!r}: {e}") from e
    return backend


def _run(
    app: AppContext, label: str, total: int, fn: Callable[[Callable[[int], None]], StageReport]
) -> StageReport:
    with click.progressbar(length=max(total, 1), label=label, file=sys.stderr) as bar:
        report = fn(bar.update)
    save_report(app.driver(), report, app.database)
    for line in report.summary_lines():
        click.echo(line)
    return report


@click.command()
@click.option(
    "--variant",
    "variants",
    multiple=True,
    type=click.Choice(VARIANTS),
    help="Variants to build (repeatable; default: all three, in order).",
)
@click.option(
    "--similarity",
    type=click.Choice(["embedding", "tokens"]),
    help="How roots are judged related: all-MiniLM-L6-v2 embeddings (default) or, "
    "explicitly, token overlap.",
)
@click.option("--threshold", type=float, help="Root similarity needed to merge trees.")
@click.option(
    "--max-group-trees",
    type=int,
    help="Split a topic group with more trees again, at a stricter threshold.",
)
@click.option("--min-relations", type=int, help="k: relations a biclique's trees must share.")
@click.option("--max-targets", type=int, help="Reject tasks with a larger target set R.")
@click.option(
    "--paraphrase-with",
    "llm_spec",
    help="LLM backend spec to paraphrase questions (default: templates only).",
)
@pass_app
def leaper(
    app: AppContext,
    variants: tuple[str, ...],
    similarity: str | None,
    threshold: float | None,
    max_group_trees: int | None,
    min_relations: int | None,
    max_targets: int | None,
    llm_spec: str | None,
) -> None:
    """Build WebLeaper trees, then Basic / Union / Reverse-Union tasks proven by the graph."""
    from graphdb import cypher
    from synth.leaper.common import LeaperConfig
    from synth.leaper.tasks_basic import build_basic_tasks
    from synth.leaper.tasks_reverse import build_reverse_tasks
    from synth.leaper.tasks_union import build_union_tasks
    from synth.leaper.trees import build_trees

    try:
        config = LeaperConfig.from_section(
            app.section("leaper"),
            similarity=similarity,
            threshold=threshold,
            max_group_trees=max_group_trees,
            min_relations=min_relations,
            max_targets=max_targets,
        )
        backend = _load_backend(llm_spec)
        driver, db = app.driver(), app.database
        chosen = [v for v in VARIANTS if v in variants] if variants else list(VARIANTS)
        n_tables = len(cypher.read(driver, "leaper/find_tree_sources", database=db))
        _run(app, "trees", n_tables, lambda p: build_trees(driver, db, config, p))
        n_trees = len(cypher.read(driver, "leaper/find_trees", database=db))
        if "basic" in chosen:
            _run(app, "basic", n_trees, lambda p: build_basic_tasks(driver, db, config, backend, p))
        if "union" in chosen:
            _run(app, "union", n_trees, lambda p: build_union_tasks(driver, db, config, backend, p))
        if "reverse-union" in chosen:
            n_unions = len(
                cypher.read(driver, "leaper/find_leaper_tasks", database=db, variants=["union"])
            )
            _run(
                app,
                "reverse-union",
                n_unions,
                lambda p: build_reverse_tasks(driver, db, config, backend, p),
            )
    except SynthError as e:
        raise click.ClickException(str(e)) from e


@click.group()
def export() -> None:
    """Export artifacts from the graph to files."""


@export.command("tasks")
@click.option(
    "--kind",
    type=click.Choice(["leaper"]),
    default="leaper",
    show_default=True,
    help="Which tasks (WebShaper tasks: `seekgraph synth shaper export`).",
)
@click.option(
    "--variant",
    "variants",
    multiple=True,
    type=click.Choice(VARIANTS),
    help="Only these variants (repeatable).",
)
@click.option("--split", type=click.Choice(["train", "heldout"]), help="Only this split.")
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("out/leaper_tasks.jsonl"),
    show_default=True,
)
@pass_app
def export_tasks_command(
    app: AppContext, kind: str, variants: tuple[str, ...], split: str | None, out_path: Path
) -> None:
    """Write kept tasks as JSONL: {id, variant, question, answers, targets, tree, provenance}."""
    from synth.leaper.export import export_tasks

    n = export_tasks(app.driver(), app.database, out_path, list(variants) or None, split)
    click.echo(f"wrote {n} {kind} tasks to {out_path}")
