"""The `ingest` stage: the tables and pages of a data folder (or of named files) into the graph."""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from seekgraph.common.llm.base import LLMBackend
from seekgraph.graphdb.errors import StageError
from seekgraph.graphdb.stages import StageContext, StageReport
from seekgraph.synth.ingest.config import IngestConfig
from seekgraph.synth.ingest.pages import ingest_pages
from seekgraph.synth.ingest.readers import file_kind, read_pages, read_tables
from seekgraph.synth.ingest.tables import ingest_tables
from seekgraph.synth.ingest.writers import GraphWriter

TABLE_FILES = ("tables.jsonl", "extra/prizes.csv", "extra/article.html")
PAGE_FILES = ("pages.jsonl",)
DATA_SUFFIXES = (".jsonl", ".jsonl.gz", ".csv", ".html", ".htm")


def default_data_dir() -> Path:
    """The project's own small data set, shipped inside the package (`seekgraph/synth/default_data`)."""
    return Path(str(resources.files("seekgraph.synth") / "default_data"))


def _key_llm(spec: str) -> LLMBackend | None:
    if not spec:
        return None
    from seekgraph.common.llm.registry import load_backend

    return load_backend(spec)


@dataclass
class InputFiles:
    """What the stage reads: table and page files, each with its name (the path relative to
    the data folder, which record ids carry), a source label, and files it leaves alone."""

    tables: list[tuple[Path, str]]
    pages: list[tuple[Path, str]]
    source: str | None = None
    ignored: list[str] = field(default_factory=list)


def input_files(config: IngestConfig) -> InputFiles:
    """The files the stage reads, in order."""
    if config.files:
        kinds = {p: file_kind(p) for p in config.files}
        return InputFiles(
            [(p, p.name) for p, kind in kinds.items() if kind == "tables"],
            [(p, p.name) for p, kind in kinds.items() if kind == "pages"],
        )
    folder = config.data or default_data_dir()
    if not folder.is_dir():
        raise StageError(f"data folder {folder} does not exist", hint="check --data")
    if config.data is None:
        return InputFiles(
            [(folder / n, n) for n in TABLE_FILES if (folder / n).is_file()],
            [(folder / n, n) for n in PAGE_FILES if (folder / n).is_file()],
            "default",
        )
    files = sorted(p for p in folder.rglob("*") if p.is_file() and not _hidden(p, folder))
    found = [p for p in files if p.name.lower().endswith(DATA_SUFFIXES)]
    if not found:
        raise StageError(
            f"data folder {folder} holds no table or page files",
            hint=f"expected files ending in {', '.join(DATA_SUFFIXES)}",
        )
    kinds = {p: file_kind(p) for p in found}
    return InputFiles(
        [(p, p.relative_to(folder).as_posix()) for p, k in kinds.items() if k == "tables"],
        [(p, p.relative_to(folder).as_posix()) for p, k in kinds.items() if k == "pages"],
        ignored=[p.relative_to(folder).as_posix() for p in files if p not in kinds],
    )


def _hidden(path: Path, folder: Path) -> bool:
    return any(part.startswith(".") for part in path.relative_to(folder).parts)


def _records(report: StageReport) -> int:
    return report.kept + report.rejected + report.skipped


def _note_empty_file(report: StageReport, name: str, before: int, kind: str) -> None:
    """A file that held no record is a rejection of its own (`no_records`), so an empty input
    is never a silent "kept 0, rejected 0"; once it holds records, that rejection goes."""
    if _records(report) == before:
        report.reject(name, "no_records", f"{name} holds no {kind} record")
    else:
        report.clear(name)


def run_ingest(
    ctx: StageContext, config: IngestConfig, writer: GraphWriter | None = None
) -> StageReport:
    """Ingest tables (JSONL, CSV, HTML) and pages; one report (tables and pages counted apart).

    `writer`: where the graph goes (default: the server; `seekgraph.synth.ingest.bulk` for a first load)."""
    report = StageReport("ingest")
    files = input_files(config)
    if files.ignored:
        shown = ", ".join(files.ignored[:10]) + (" ..." if len(files.ignored) > 10 else "")
        ctx.echo(f"ingest: ignoring {len(files.ignored)} files that are not data: {shown}")
        report.notes["ignored files"] = len(files.ignored)
    llm = _key_llm(config.key_llm)
    tables_report = StageReport("ingest")
    for path, name in files.tables:
        seen = _records(tables_report)
        with ctx.progress(f"tables {name}") as bar:
            ingest_tables(
                ctx.driver,
                read_tables(path, files.source, name),
                config,
                database=ctx.database,
                report=tables_report,
                llm=llm,
                on_record=bar.update,
                writer=writer,
            )
        _note_empty_file(tables_report, name, seen, "table")
    pages_report = StageReport("ingest")
    for path, name in files.pages:
        seen = _records(pages_report)
        with ctx.progress(f"pages {name}") as bar:
            ingest_pages(
                ctx.driver,
                read_pages(path, config.page_source or files.source, name),
                config,
                database=ctx.database,
                report=pages_report,
                on_record=bar.update,
                writer=writer,
            )
        _note_empty_file(pages_report, name, seen, "page")
    for part in (tables_report, pages_report):
        report.keep(part.kept)
        report.skip(part.skipped)
        report.rejections += part.rejections
        report.cleared += part.cleared
        report.notes.update(part.notes)
    report.notes["tables kept"] = tables_report.kept
    report.notes["pages kept"] = pages_report.kept
    report.notes["files"] = ", ".join(n for _, n in [*files.tables, *files.pages]) or "none"
    return report
