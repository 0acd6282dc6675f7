"""The `ingest` stage: the tables and pages of a data folder (or of named files) into the graph."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from common.llm.base import LLMBackend
from graphdb.errors import StageError
from graphdb.stages import StageContext, StageReport
from synth.ingest.config import IngestConfig
from synth.ingest.pages import ingest_pages
from synth.ingest.readers import file_kind, read_pages, read_tables
from synth.ingest.tables import ingest_tables

TABLE_FILES = ("tables.jsonl", "extra/prizes.csv", "extra/article.html")
PAGE_FILES = ("pages.jsonl",)
DATA_SUFFIXES = (".jsonl", ".jsonl.gz", ".csv", ".html", ".htm")


def default_data_dir() -> Path:
    """The project's own small data set, shipped inside the package (`synth/default_data`)."""
    return Path(str(resources.files("synth") / "default_data"))


def _key_llm(spec: str) -> LLMBackend | None:
    if not spec:
        return None
    from common.llm.registry import load_backend

    return load_backend(spec)


def input_files(config: IngestConfig) -> tuple[list[Path], list[Path], str | None]:
    """(table files, page files, source label) the stage reads, in order."""
    if config.files:
        kinds = {p: file_kind(p) for p in config.files}
        tables = [p for p, kind in kinds.items() if kind == "tables"]
        return tables, [p for p, kind in kinds.items() if kind == "pages"], None
    folder = config.data or default_data_dir()
    if not folder.is_dir():
        raise StageError(f"data folder {folder} does not exist", hint="check --data")
    if config.data is None:
        tables = [folder / n for n in TABLE_FILES if (folder / n).is_file()]
        return tables, [folder / n for n in PAGE_FILES if (folder / n).is_file()], "default"
    found = sorted(p for p in folder.rglob("*") if p.is_file() and p.name.endswith(DATA_SUFFIXES))
    if not found:
        raise StageError(
            f"data folder {folder} holds no table or page files",
            hint=f"expected files ending in {', '.join(DATA_SUFFIXES)}",
        )
    kinds = {p: file_kind(p) for p in found}
    tables = [p for p, kind in kinds.items() if kind == "tables"]
    return tables, [p for p, kind in kinds.items() if kind == "pages"], None


def run_ingest(ctx: StageContext, config: IngestConfig) -> StageReport:
    """Ingest tables (JSONL, CSV, HTML) and pages; one report (tables and pages counted apart)."""
    report = StageReport("ingest")
    tables, pages, source = input_files(config)
    llm = _key_llm(config.key_llm)
    tables_report = StageReport("ingest")
    for path in tables:
        with ctx.progress(f"tables {path.name}") as bar:
            ingest_tables(
                ctx.driver,
                read_tables(path, source),
                config,
                database=ctx.database,
                report=tables_report,
                llm=llm,
                on_record=bar.update,
            )
    pages_report = StageReport("ingest")
    for path in pages:
        with ctx.progress(f"pages {path.name}") as bar:
            ingest_pages(
                ctx.driver,
                read_pages(path, config.page_source or source),
                config,
                database=ctx.database,
                report=pages_report,
                on_record=bar.update,
            )
    for part in (tables_report, pages_report):
        report.keep(part.kept)
        report.skip(part.skipped)
        report.rejections += part.rejections
        report.notes.update(part.notes)
    report.notes["tables kept"] = tables_report.kept
    report.notes["pages kept"] = pages_report.kept
    report.notes["files"] = ", ".join(p.name for p in [*tables, *pages]) or "none"
    return report
