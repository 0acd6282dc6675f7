"""Writing tables into the graph: clean, pick the key column, then MERGE in batches.

For each batch of tables: tables already in the graph with the same content hash (content plus
cleaning settings) are skipped; changed ones keep their old version for provenance, mark what
was built on them stale (`seekgraph.synth.ingest.sources`) and lose their old rows; kept tables get columns,
rows, cells (linked cells → `Entity` keyed by link target, others → typed `Value`), FACT edges
named by the header's current relation, and a rendered `Page` (`table_parts`); finally the
`Table` node itself is written with its hash, which marks it finished (a killed run redoes only
unfinished tables).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import neo4j

from seekgraph.graphdb import cypher
from seekgraph.graphdb.stages import StageReport
from seekgraph.synth.ingest.clean import Verdict, check_table, dropped_rows, table_context
from seekgraph.synth.ingest.config import IngestConfig
from seekgraph.synth.ingest.places import location, rejected_locations
from seekgraph.synth.ingest.records import RawTable, Unreadable
from seekgraph.synth.ingest.sources import VersionChange, supersede
from seekgraph.synth.ingest.table_parts import RowWriter
from seekgraph.synth.ingest.writers import CypherWriter, GraphWriter
from seekgraph.synth.key_score import ColumnStats, column_stats
from seekgraph.synth.keycolumn import llm_key_column

if TYPE_CHECKING:
    from seekgraph.common.llm.base import LLMBackend
from seekgraph.synth.relations import current_mappings

STAGE = "ingest"


def _table_node(
    table: RawTable, verdict: Verdict, content_hash: str, version: str, place: tuple[str, str]
) -> dict[str, Any]:
    """The Table node's row; `place`: (source name, path of its file in the source)."""
    return {
        "table_id": table.table_id,
        "title": table.title,
        "section_title": table.section_title,
        "url": table.url,
        "source": table.source,
        "n_rows": table.n_rows,
        "n_cols": table.n_cols,
        "status": "rejected" if verdict.reason else "kept",
        "reason": verdict.reason,
        "detail": verdict.detail or None,
        "key_column": verdict.key.index if verdict.key else None,
        "key_score": verdict.key.score if verdict.key else None,
        "content_hash": content_hash,
        "origin": table.origin or None,
        "version": version,
        "source_name": place[0] or None,
        "path": place[1] or None,
    }


def _ask_llm(
    llm: LLMBackend, table: RawTable, key: ColumnStats, report: StageReport
) -> ColumnStats:
    """On a close call (another usable column within 0.15 of the best score) let the LLM pick."""
    from seekgraph.common.llm.errors import BackendError

    close = [
        s
        for s in column_stats(table.header, table.rows, table_context(table))
        if s.score >= key.score - 0.15 and s.literal_share < 0.5
    ]
    if len(close) < 2:
        return key
    try:
        choice = llm_key_column(llm, table.title, table.header, table.rows, close)
    except BackendError as e:
        report.notes["key: llm errors"] = int(str(report.notes.get("key: llm errors", 0))) + 1
        report.notes["key: last llm error"] = str(e)[:200]
        return key
    picked = next((s for s in close if s.index == choice), key)
    if picked.index != key.index:
        report.notes["key: changed by llm"] = (
            int(str(report.notes.get("key: changed by llm", 0))) + 1
        )
    return picked


def _kept_elsewhere(before: dict[str, Any], table: RawTable) -> bool:
    """The graph holds this id as a kept table read from another place (file and line; the
    same place with new content is an update)."""
    return bool(
        before["status"] == "kept"
        and before["origin"]
        and table.origin
        and location(before["origin"]) != location(table.origin)
    )


def ingest_tables(
    driver: neo4j.Driver,
    items: Iterable[RawTable | Unreadable],
    config: IngestConfig | None = None,
    *,
    database: str | None = None,
    report: StageReport | None = None,
    on_record: Callable[[int], None] | None = None,
    llm: LLMBackend | None = None,
    writer: GraphWriter | None = None,
    place: tuple[str, str] = ("", ""),
    seen_ids: set[str] | None = None,
) -> StageReport:
    """Clean and write `items` (from the readers); returns the stage report.

    `writer`: where reads and writes go (default: the server, through `driver`). `place`:
    the source name and the path of the file in it, stored on each table (what
    ``--retire-missing`` compares); `seen_ids` collects the ids of the tables read.

    With `llm`, close calls between key columns are decided by the model (see `_ask_llm`).

    Kept: tables written as `status: kept`; rejected: tables written as `status: rejected`
    with their reason, and unreadable records, each also a `Rejection` (via the report).
    Skipped: tables already in the graph with the same content and settings.
    """
    config = config or IngestConfig()
    report = report or StageReport(STAGE)
    writer = writer or CypherWriter(driver, database)
    fingerprint = config.fingerprint()
    mappings = current_mappings(driver, database)
    rejected_places = rejected_locations(driver, database)
    counts = report.notes
    for chunk in cypher.batched(items, config.table_batch):
        tables = [t for t in chunk if isinstance(t, RawTable)]
        for bad in chunk:
            if isinstance(bad, Unreadable):
                report.reject(bad.record_id, bad.reason, bad.detail)
        existing = {
            row["table_id"]: row
            for row in writer.read("ingest/find_tables", ids=[t.table_id for t in tables])
        }
        batch = RowWriter()
        redo: list[dict[str, str]] = []
        changes: list[VersionChange] = []
        nodes: list[dict[str, Any]] = []
        seen: set[str] = set()
        for table in tables:
            version = table.content_hash()
            digest = f"{version}-{fingerprint}"
            if table.table_id in seen:
                report.reject(
                    table.table_id,
                    "duplicate_id",
                    f"a table with this id came earlier (this one: {location(table.origin)})",
                )
                continue
            seen.add(table.table_id)
            repeated = seen_ids is not None and table.table_id in seen_ids
            if seen_ids is not None:
                seen_ids.add(table.table_id)
            before = existing.get(table.table_id)
            if before and before["content_hash"] == digest:
                report.skip()
                continue
            verdict = check_table(table, config)
            if verdict.reason and before and _kept_elsewhere(before, table):
                report.reject(
                    table.origin,
                    "id_clash",
                    f"table {table.table_id} is kept from {before['origin']}; this copy is "
                    f"{verdict.reason} and does not replace it",
                )
                continue
            if before:
                redo.append({"table_id": table.table_id})
                # read earlier in this run (another file): that version was never served
                changes.append(
                    VersionChange(table.table_id, None, version, repeated=True)
                    if repeated
                    else VersionChange.of(before, version)
                )
            nodes.append(_table_node(table, verdict, digest, version, place))
            if verdict.reason:
                where = f" (at {location(table.origin)})" if table.origin else ""
                report.reject(table.table_id, verdict.reason, verdict.detail + where)
                continue
            report.clear(table.table_id)
            if location(table.origin) in rejected_places:
                report.clear(location(table.origin))
            assert verdict.key is not None
            key = _ask_llm(llm, table, verdict.key, report) if llm else verdict.key
            dropped = verdict.dropped
            if key is not verdict.key:
                nodes[-1].update(key_column=key.index, key_score=key.score)
                dropped = dropped_rows(table, key.index)
            for r, reason, text in dropped:
                report.reject(f"{table.table_id}#r{r}", reason, f"key cell {text!r}")
            batch.add(table, key.index, mappings, {r for r, _, _ in dropped})
            report.keep()
        supersede(writer, changes)
        writer.write("ingest/delete_table_parts", redo, batch_size=10)
        batch.write(writer, config.cell_batch)
        # a table node is the resume marker (a re-run skips it): its rejection goes first
        writer.save_rejections(report)
        writer.write("ingest/merge_tables", nodes, batch_size=config.cell_batch)
        counts["rows written"] = int(str(counts.get("rows written", 0))) + batch.n_rows
        if on_record is not None:
            on_record(len(chunk))
    return report


def graph_counts(driver: neo4j.Driver, database: str | None = None) -> dict[str, int]:
    """``{"node:Label": n, "rel:TYPE": n}`` for the whole graph."""
    return {
        row["kind"]: int(row["n"])
        for row in cypher.read(driver, "ingest/count_graph", database=database)
    }
