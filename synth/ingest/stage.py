"""Pipeline stages `ingest` (tables and pages of a data folder) and `relations`."""

from __future__ import annotations

from pathlib import Path

from graphdb.stages import StageReport
from seekgraph.pipeline import PipelineContext
from synth.ingest.config import IngestConfig
from synth.ingest.pages import ingest_pages
from synth.ingest.readers import read_pages, read_tables
from synth.ingest.tables import ingest_tables
from synth.relations import RELATION_THRESHOLD, normalise_relations

TABLE_FILES = ("tables.jsonl", "extra/prizes.csv", "extra/article.html")
PAGE_FILES = ("pages.jsonl",)


def run_ingest(ctx: PipelineContext) -> list[StageReport]:
    """Ingest the data folder's tables (JSONL, CSV, HTML) and pages; missing files are noted."""
    config = IngestConfig.from_section(ctx.section("synth"))
    tables = StageReport("ingest")
    pages = StageReport("ingest_pages")
    for name in TABLE_FILES:
        path = Path(ctx.data_dir) / name
        if path.is_file():
            ingest_tables(
                ctx.driver, read_tables(path), config, database=ctx.database, report=tables
            )
        else:
            tables.notes[f"missing {name}"] = "not found"
    for name in PAGE_FILES:
        path = Path(ctx.data_dir) / name
        if path.is_file():
            ingest_pages(ctx.driver, read_pages(path), config, database=ctx.database, report=pages)
        else:
            pages.notes[f"missing {name}"] = "not found"
    return [tables.finish(), pages.finish()]


def run_relations(ctx: PipelineContext) -> StageReport:
    """Normalise header → relation mappings (rules + MiniLM) and rename FACT edges."""
    section = ctx.section("synth")
    return normalise_relations(
        ctx.driver,
        ctx.database,
        threshold=float(section.get("relation_threshold", RELATION_THRESHOLD)),
        use_embeddings=bool(section.get("relation_embeddings", True)),
    )
