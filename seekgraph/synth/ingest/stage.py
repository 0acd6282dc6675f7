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
from seekgraph.synth.ingest.redirects import LinkResolver
from seekgraph.synth.ingest.sources import (
    Source,
    SourceReading,
    claim_sources,
    record_sources,
    retire_missing,
    source_of,
)
from seekgraph.synth.ingest.tables import ingest_tables
from seekgraph.synth.ingest.writers import CypherWriter, GraphWriter

TABLE_FILES = ("tables.jsonl", "extra/prizes.csv", "extra/article.html")
PAGE_FILES = ("pages.jsonl",)
DATA_SUFFIXES = (".jsonl", ".jsonl.gz", ".csv", ".html", ".htm")
# the readers' rejections (`Unreadable`): a record that could not be read as a table
UNREADABLE = frozenset(
    {"broken_file", "broken_json", "encoding", "bad_shape", "empty", "no_header"}
)


def default_data_dir() -> Path:
    """The project's own small data set, shipped inside the package (`seekgraph/synth/default_data`)."""
    return Path(str(resources.files("seekgraph.synth") / "default_data"))


def _key_llm(spec: str) -> LLMBackend | None:
    if not spec:
        return None
    from seekgraph.common.llm.registry import load_backend

    return load_backend(spec)


@dataclass(frozen=True)
class InputFile:
    """A file to read: its path, its name (the path relative to its source's folder, which
    record ids carry) and the source it belongs to."""

    path: Path
    name: str
    source: Source


@dataclass
class InputFiles:
    """What the stage reads: table and page files, a label for JSONL tables (``default`` for
    the packaged data), files it leaves alone, and whether it read a whole folder (only then
    can a table be missing from its source)."""

    tables: list[InputFile]
    pages: list[InputFile]
    label: str | None = None
    ignored: list[str] = field(default_factory=list)
    whole_folder: bool = True

    @property
    def sources(self) -> list[Source]:
        return list(dict.fromkeys(f.source for f in [*self.tables, *self.pages]))


def input_files(config: IngestConfig) -> InputFiles:
    """The files the stage reads, in order."""
    if config.files:
        kinds = {p: file_kind(p) for p in config.files}
        named = [(p, kind, source_of(p.parent, config.source)) for p, kind in kinds.items()]
        return InputFiles(
            [InputFile(p, p.name, src) for p, kind, src in named if kind == "tables"],
            [InputFile(p, p.name, src) for p, kind, src in named if kind == "pages"],
            whole_folder=False,
        )
    folder = config.data or default_data_dir()
    if not folder.is_dir():
        raise StageError(f"data folder {folder} does not exist", hint="check --data")
    if config.data is None:
        source = source_of(folder, config.source, default=True)
        return InputFiles(
            [InputFile(folder / n, n, source) for n in TABLE_FILES if (folder / n).is_file()],
            [InputFile(folder / n, n, source) for n in PAGE_FILES if (folder / n).is_file()],
            "default",
        )
    source = source_of(folder, config.source)
    files = sorted(p for p in folder.rglob("*") if p.is_file() and not _hidden(p, folder))
    found = [p for p in files if p.name.lower().endswith(DATA_SUFFIXES)]
    if not found:
        raise StageError(
            f"data folder {folder} holds no table or page files",
            hint=f"expected files ending in {', '.join(DATA_SUFFIXES)}",
        )
    kinds = {p: file_kind(p) for p in found}

    def listed(kind: str) -> list[InputFile]:
        return [
            InputFile(p, p.relative_to(folder).as_posix(), source)
            for p, k in kinds.items()
            if k == kind
        ]

    return InputFiles(
        listed("tables"),
        listed("pages"),
        ignored=[p.relative_to(folder).as_posix() for p in files if p not in kinds],
    )


def _hidden(path: Path, folder: Path) -> bool:
    return any(part.startswith(".") for part in path.relative_to(folder).parts)


def _unreadable_since(report: StageReport, before: int) -> bool:
    """Whether a record read after the first `before` rejections could not be read: no table
    of that file is then taken for missing (the unread record may be one of them)."""
    return any(r.reason in UNREADABLE for r in report.rejections[before:])


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
    if config.retire_missing and not files.whole_folder:
        raise StageError(
            "--retire-missing needs a data folder: files named one by one are not a whole source",
            hint="pass --data FOLDER",
        )
    claim_sources(ctx.driver, ctx.database, files.sources)
    writer = writer or CypherWriter(ctx.driver, ctx.database)
    if files.ignored:
        shown = ", ".join(files.ignored[:10]) + (" ..." if len(files.ignored) > 10 else "")
        ctx.echo(f"ingest: ignoring {len(files.ignored)} files that are not data: {shown}")
        report.notes["ignored files"] = len(files.ignored)
    llm = _key_llm(config.key_llm)
    # the page files are read twice: here for their ids, titles and openings only (10 s for
    # OTT-QA's 166k passages), so the tables' links are resolved before the tables are
    # written; `ingest_pages` reads them again to write them, after the tables
    resolver = LinkResolver()
    if config.resolve_links:
        for file in files.pages:
            ctx.echo(f"ingest: reading page names in {file.name} (redirects, season pages)")
            resolver.add_pages(read_pages(file.path, config.page_source or files.label, file.name))
    tables_report = StageReport("ingest")
    readings = {s: SourceReading(s, set(), set()) for s in files.sources}
    for file in files.tables:
        seen = _records(tables_report)
        rejected = tables_report.rejected
        reading = readings[file.source]
        items = read_tables(file.path, files.label, file.name, file.source.name)
        if config.resolve_links:
            items = resolver.resolve_all(items)
        with ctx.progress(f"tables {file.name}") as bar:
            ingest_tables(
                ctx.driver,
                items,
                config,
                database=ctx.database,
                report=tables_report,
                llm=llm,
                on_record=bar.update,
                writer=writer,
                place=(file.source.name, file.name),
                seen_ids=reading.seen,
            )
        if _unreadable_since(tables_report, rejected):
            reading.unsure_paths.add(file.name)
        _note_empty_file(tables_report, file.name, seen, "table")
    pages_report = StageReport("ingest")
    for file in files.pages:
        seen = _records(pages_report)
        with ctx.progress(f"pages {file.name}") as bar:
            ingest_pages(
                ctx.driver,
                read_pages(file.path, config.page_source or files.label, file.name),
                config,
                database=ctx.database,
                report=pages_report,
                on_record=bar.update,
                writer=writer,
            )
        _note_empty_file(pages_report, file.name, seen, "page")
    record_sources(writer, files.sources)
    if files.whole_folder:
        for reading in readings.values():
            retire_missing(
                writer,
                reading,
                tables_report,
                retire=config.retire_missing,
            )
    for part in (tables_report, pages_report):
        report.keep(part.kept)
        report.skip(part.skipped)
        report.rejections += part.rejections
        report.cleared += part.cleared
        report.notes.update(part.notes)
    if config.resolve_links:
        report.notes["pages standing for another"] = len(resolver.same_page)
        report.notes["links resolved"] = resolver.resolved
        report.notes["cells naming their page by another name"] = resolver.aliases
    report.notes["tables kept"] = tables_report.kept
    report.notes["pages kept"] = pages_report.kept
    report.notes["files"] = ", ".join(f.name for f in [*files.tables, *files.pages]) or "none"
    report.notes["source"] = ", ".join(s.name for s in files.sources) or "none"
    return report
