"""`seekgraph db load`: the first load of an empty graph through the import tool.

Ingest runs exactly as always (the same readers, cleaning, key columns, rows and rejections),
but its writes go to `BulkGraph` (`seekgraph.synth.ingest.bulk_graph`), which applies each
ingest query's MERGE and SET rules in memory, in the same order as the server would, and
streams each finished batch of records to CSV files. Those are imported with `neo4j-admin database import` while the server is stopped;
then the server starts again, the schema (constraints, indexes) is built, and the stage's report
and rejections are stored as after any ingest. A test compares the graph with one built by
`seekgraph ingest`.

A later `seekgraph ingest` of the same data skips every record (the content hashes are there);
changes and additions go through the ordinary incremental path. Memory: the headers, entities
and values of the input, a few fields per table and page, and one batch (measured in
`bench/bench_scale.py`).
"""

from __future__ import annotations

import resource
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import neo4j

from seekgraph.graphdb import cypher, server
from seekgraph.graphdb.bulk_import import import_full
from seekgraph.graphdb.errors import StageError
from seekgraph.graphdb.schema import apply_schema
from seekgraph.graphdb.settings import ServerSettings
from seekgraph.graphdb.stages import StageContext, StageReport
from seekgraph.synth.ingest.bulk_graph import BulkGraph
from seekgraph.synth.ingest.config import IngestConfig
from seekgraph.synth.ingest.stage import run_ingest


def _graph_is_empty(driver: neo4j.Driver, database: str | None) -> bool:
    rows = cypher.read(driver, "ingest/count_data_nodes", database=database)
    return int(rows[0]["n"]) == 0


def bulk_load(
    ctx: StageContext,
    config: IngestConfig,
    settings: ServerSettings,
    *,
    reconnect: Callable[[], neo4j.Driver],
    replace: bool = False,
    work_dir: Path | None = None,
) -> tuple[StageReport, neo4j.Driver]:
    """Ingest `config`'s data into the empty graph of the managed server `settings` through the
    import tool (`replace`: even when the graph holds data, which is then lost).

    The import gives the database a new transaction history, so drivers that ran queries
    before it hold bookmarks it never reaches: `reconnect` closes the caller's driver and opens
    a new one. Returns the ingest report (the caller stores it, as for any stage) and that
    driver."""
    if not replace and not _graph_is_empty(ctx.driver, ctx.database):
        raise StageError(
            "the graph is not empty: the bulk load replaces the whole database",
            hint="use `seekgraph ingest` to add data, or `seekgraph db load --replace` to "
            "start over",
        )
    started = time.perf_counter()
    folder = Path(tempfile.mkdtemp(prefix="seekgraph-import-", dir=work_dir))
    try:
        graph = BulkGraph(folder)
        report = run_ingest(ctx, config, writer=graph)
        built = time.perf_counter()
        node_files, rel_files = graph.close()
        written = time.perf_counter()
        n_nodes, n_rels = graph.counts()
        dropped = graph.parts.dropped
        del graph
        # this process only (the import tool, a child, has not started): kilobytes on Linux
        peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        ctx.echo(f"bulk load: {n_nodes:,} nodes, {n_rels:,} relationships written as CSV")
        server.stop(settings)
        stopped = time.perf_counter()
        import_full(settings, node_files, rel_files, database=ctx.database or "neo4j")
        imported = time.perf_counter()
        server.start(settings)
        restarted = time.perf_counter()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    driver = reconnect()
    apply_schema(driver, ctx.database)
    done = time.perf_counter()
    report.seconds = done - started
    report.notes.update(
        {
            "bulk": True,
            "nodes imported": n_nodes,
            "relationships imported": n_rels,
            "rows dropped (records written again)": sum(dropped),
            "peak MiB before the import tool": round(peak_mib),
            "seconds: build and stream CSV": round(built - started, 2),
            "seconds: shared nodes and close CSV": round(written - built, 2),
            "seconds: server stop": round(stopped - written, 2),
            "seconds: import tool": round(imported - stopped, 2),
            "seconds: server start": round(restarted - imported, 2),
            "seconds: schema (constraints, indexes online)": round(done - restarted, 2),
        }
    )
    ctx.echo(
        f"bulk load: imported in {imported - stopped:.1f}s "
        f"({(n_nodes + n_rels) / max(imported - stopped, 1e-9):,.0f} rows/s), "
        f"{done - started:.1f}s in all"
    )
    return report, driver
