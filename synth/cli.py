"""`seekgraph ingest tables|pages|relations`: load sources into the graph, name the relations.

Every command is idempotent (re-running adds nothing), shows progress, and ends with a summary
of what was kept and rejected and why. Cleaning flags default to the ``[synth]`` config section.
"""

from __future__ import annotations

import gzip
import logging
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import click

from graphdb.errors import GraphDBError
from graphdb.schema import apply_schema
from graphdb.stages import StageReport, save_report
from seekgraph.context import AppContext, pass_app
from synth.errors import SynthError
from synth.ingest.config import IngestConfig

T = TypeVar("T")


def _config_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """One `--flag` per `IngestConfig` field (None = take the config file or the default)."""
    for name, default, help_text in reversed(IngestConfig.help_items()):
        flag = name.replace("_", "-")
        if isinstance(default, bool):
            fn = click.option(
                f"--{flag}/--no-{flag}",
                name,
                default=None,
                help=f"{help_text} [default: {default}]",
            )(fn)
        else:
            fn = click.option(
                f"--{flag}",
                name,
                type=type(default),
                default=None,
                help=f"{help_text} [default: {default}]",
            )(fn)
    return fn


def _count_lines(path: Path) -> int | None:
    name = path.name.lower()
    if not name.endswith((".jsonl", ".jsonl.gz")):
        return 1
    opener = gzip.open if name.endswith(".gz") else open
    with opener(path, "rb") as handle:
        return sum(1 for _ in handle)


def _progress(items: Iterable[T], length: int | None, label: str) -> Iterator[T]:
    with click.progressbar(length=length or 0, label=label, show_pos=True, file=sys.stderr) as bar:
        for item in items:
            yield item
            bar.update(1)


def _finish(app: AppContext, reports: list[StageReport]) -> None:
    for report in reports:
        report.finish()
        save_report(app.driver(), report, app.database)
        for line in report.summary_lines():
            click.echo(line)


@click.group()
def ingest() -> None:
    """Load tables and pages into the graph and normalise relation names."""
    # Schema-less reads (no MAPS_TO yet on a fresh graph) make the server warn; not news here.
    logging.getLogger("neo4j.notifications").setLevel(logging.ERROR)


@ingest.command("tables")
@click.argument(
    "paths", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option(
    "--llm",
    "llm_spec",
    default=None,
    metavar="SPEC",
    help="LLM backend (e.g. `transformers`) deciding close key-column calls "
    "[default: [synth] key_llm, else none].",
)
@_config_options
@pass_app
def tables_command(
    app: AppContext, paths: tuple[Path, ...], llm_spec: str | None, **flags: Any
) -> None:
    """Ingest tables: OTT-QA JSONL (.jsonl/.jsonl.gz), CSV with a header row, article HTML."""
    from synth.ingest.readers import read_tables
    from synth.ingest.tables import ingest_tables

    llm = None
    spec = llm_spec or app.section("synth").get("key_llm")
    if spec:
        from common.llm.errors import LLMError
        from common.llm.registry import load_backend

        try:
            llm = load_backend(str(spec))
        except LLMError as e:
            raise click.ClickException(f"LLM backend {spec!r}: {e}") from e
    try:
        config = IngestConfig.from_section(app.section("synth"), **flags)
        driver = app.driver()
        apply_schema(driver, app.database)
        report = StageReport("ingest")
        for path in paths:
            items = _progress(read_tables(path), _count_lines(path), path.name)
            ingest_tables(driver, items, config, database=app.database, report=report, llm=llm)
    except (SynthError, GraphDBError) as e:
        raise click.ClickException(str(e)) from e
    _finish(app, [report])


@ingest.command("pages")
@click.argument(
    "paths", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option(
    "--source",
    type=click.Choice(["passage", "article", "default"]),
    default=None,
    help="Page source (default: article when a record has out_links, else passage).",
)
@click.option("--page-batch", type=int, default=None, help="Pages per write transaction.")
@pass_app
def pages_command(
    app: AppContext, paths: tuple[Path, ...], source: str | None, page_batch: int | None
) -> None:
    """Ingest pages: passages JSONL {id, title, text} or articles JSONL with out_links."""
    from synth.ingest.pages import ingest_pages
    from synth.ingest.readers import read_pages

    try:
        config = IngestConfig.from_section(app.section("synth"), page_batch=page_batch)
        driver = app.driver()
        apply_schema(driver, app.database)
        report = StageReport("ingest_pages")
        for path in paths:
            items = _progress(read_pages(path, source), _count_lines(path), path.name)
            ingest_pages(driver, items, config, database=app.database, report=report)
    except (SynthError, GraphDBError) as e:
        raise click.ClickException(str(e)) from e
    _finish(app, [report])


@ingest.command("relations")
@click.option(
    "--set",
    "assignments",
    multiple=True,
    metavar="HEADER=relation",
    help='A human mapping, never overwritten, e.g. --set "Nation=nationality".',
)
@click.option("--list", "list_only", is_flag=True, help="List relations and their headers.")
@click.option(
    "--threshold",
    type=float,
    default=None,
    help="Cosine similarity to merge two relation names [default: 0.84].",
)
@click.option("--no-embeddings", is_flag=True, help="Header rules only (no MiniLM).")
@pass_app
def relations_command(
    app: AppContext,
    assignments: tuple[str, ...],
    list_only: bool,
    threshold: float | None,
    no_embeddings: bool,
) -> None:
    """Normalise relation names (default), set human mappings (--set), or --list them."""
    from synth import relations

    section = app.section("synth")
    try:
        driver = app.driver()
        if list_only:
            for row in relations.list_mappings(driver, app.database):
                heads = ", ".join(
                    f"{h['header']!r}({h['method']}"
                    + (f" {h['score']:.2f}" if h["method"] == "embedding" else "")
                    + ")"
                    for h in row["headers"][:8]
                )
                more = len(row["headers"]) - 8
                click.echo(
                    f"{row['relation']:<28} {row['columns']:>6}  {heads}"
                    + (f" +{more} more" if more > 0 else "")
                )
            return
        for text in assignments:
            mapping = relations.set_human_mapping(driver, text, app.database)
            click.echo(f"set {mapping.key!r} -> {mapping.relation} (human)")
        if assignments:
            return
        report = relations.normalise_relations(
            driver,
            app.database,
            threshold=threshold
            if threshold is not None
            else float(section.get("relation_threshold", relations.RELATION_THRESHOLD)),
            use_embeddings=not no_embeddings and bool(section.get("relation_embeddings", True)),
        )
    except (SynthError, GraphDBError) as e:
        raise click.ClickException(str(e)) from e
    _finish(app, [report])


@ingest.command("status")
@pass_app
def status_command(app: AppContext) -> None:
    """Tables kept and rejected by reason, shared entities, node and relationship counts."""
    from synth.ingest.inspect import status_lines

    try:
        for line in status_lines(app.driver(), app.database):
            click.echo(line)
    except GraphDBError as e:
        raise click.ClickException(str(e)) from e


@ingest.command("show")
@click.argument("entity_id")
@pass_app
def show_command(app: AppContext, entity_id: str) -> None:
    """The facts of one entity, e.g. `seekgraph ingest show /wiki/Kazuo_Ishiguro`."""
    from synth.ingest.inspect import entity_facts
    from synth.ingest.records import wiki_id

    try:
        facts = entity_facts(app.driver(), wiki_id(entity_id), app.database)
    except GraphDBError as e:
        raise click.ClickException(str(e)) from e
    if not facts:
        raise click.ClickException(f"no facts for {wiki_id(entity_id)}")
    for f in facts:
        click.echo(f"{f['relation']:<24} {f['target']:<40} {f['table_id']} row {f['row']}")
