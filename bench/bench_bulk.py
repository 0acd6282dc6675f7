"""First load of OTT-QA tables and passages: incremental ingest vs `seekgraph db load`.

In one run, each on a private server of its own from empty: `ingest` (batched MERGE over Bolt),
and the bulk load (`seekgraph.synth.ingest.bulk`: the same ingest into memory, CSV, server stop,
`neo4j-admin database import`, server start, schema) of the same data. Both build the same graph
(tests/test_bulk_load.py). (Run after the ingest on the same server, the bulk load's server stop
included the checkpoint of everything the ingest wrote: 10.6 s of 49.8 s at 1,000 tables.)
Two references, ratio = reference seconds / case seconds on the same graph elements: the import
tool's own time on the bulk load's CSV files (JVM start included), and the fair one (issue 33):
Community's import tool cannot build constraints and indexes during the import, so a graph
ready to query costs the tool + a server start + the schema coming online.

With ``--all`` the whole OTT-QA train folder is loaded (1x: every table and passage);
``--no-incremental`` leaves out the incremental ingest (most of an hour at 1x); ``--backup``
then times `seekgraph db dump` and `db restore` of the loaded graph (counts compared after).

    .venv/bin/python -m bench.bench_bulk --tables 1000
    .venv/bin/python -m bench.bench_bulk --all --no-incremental --backup
"""

from __future__ import annotations

import argparse
import gzip
import sys
import tempfile
import time
from pathlib import Path

import neo4j

from bench.bench_load import connect, private_server
from bench.common import peak_rss, write_markdown
from bench.ottqa_sample import SHARED, sample
from seekgraph.graphdb import server
from seekgraph.graphdb.backup import dump, restore
from seekgraph.graphdb.schema import apply_schema
from seekgraph.graphdb.settings import ServerSettings
from seekgraph.graphdb.stages import StageContext, save_report
from seekgraph.synth.ingest.bulk import bulk_load
from seekgraph.synth.ingest.config import IngestConfig
from seekgraph.synth.ingest.stage import run_ingest
from seekgraph.synth.ingest.tables import graph_counts


def _elements(driver: neo4j.Driver) -> int:
    return sum(n for kind, n in graph_counts(driver).items() if kind != "node:StageRun")


def _count_lines(path: Path) -> int:
    with gzip.open(path, "rb") as handle:
        return sum(1 for line in handle if line.strip())


def _counts(driver: neo4j.Driver) -> dict[str, int]:
    return {k: v for k, v in graph_counts(driver).items() if k != "node:StageRun"}


def _round_trip(settings: ServerSettings, driver: neo4j.Driver, root: Path) -> list[str]:
    """`db dump` then `db restore` of the loaded graph (each stops and starts the server);
    the counts by label and type must come back equal."""
    before = _counts(driver)
    driver.close()
    file = root / "graph.seekgraph-dump"
    dumped = dump(settings, file, echo=lambda _: None)
    restored = restore(settings, file, echo=lambda _: None)
    with connect(settings) as again:
        after = _counts(again)
    assert after == before, "the restored graph differs in its counts"
    size = file.stat().st_size / 2**20
    return [
        f"backup round trip: db dump {dumped.seconds:.1f} s ({size:,.0f} MiB file), db restore "
        f"{restored.seconds:.1f} s (server stop and start included in each); counts by label "
        f"and type equal after"
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000, help="OTT-QA tables sampled.")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--work-dir", type=Path, default=None, help="Where the servers live.")
    parser.add_argument("--all", action="store_true", help="The whole OTT-QA folder (1x).")
    parser.add_argument("--no-incremental", action="store_true", help="Bulk load only.")
    parser.add_argument("--backup", action="store_true", help="Time dump and restore after.")
    parser.add_argument("--no-markdown", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-bulk-", dir=args.work_dir) as tmp:
        root = Path(tmp)
        if args.all:
            data = SHARED
            n_tables = _count_lines(SHARED / "tables.train.jsonl.gz")
            n_passages = _count_lines(SHARED / "passages.train.jsonl.gz")
        else:
            data = root / "data"
            n_tables, n_passages = sample(SHARED, args.tables, args.seed, data)
        config = IngestConfig(data=data)
        ingest_s, elements, db_peak, py_ingest_mib = 0.0, 0, 0.0, 0.0
        if not args.no_incremental:
            settings = private_server(root / "ingest")
            status = server.start(settings)
            try:
                with connect(settings) as driver:
                    apply_schema(driver)
                    ctx = StageContext(driver, None, root / "out", echo=lambda _: None)
                    with peak_rss() as py_ingest, peak_rss(status.pid) as db_ingest:
                        started = time.perf_counter()
                        save_report(driver, run_ingest(ctx, config))
                        ingest_s = time.perf_counter() - started
                    elements = _elements(driver)
                    db_peak, py_ingest_mib = db_ingest["peak_mib"], py_ingest["peak_mib"]
            finally:
                server.stop(settings, timeout=60)

        settings = private_server(root / "bulk")  # a first load: an empty graph
        server.start(settings)
        drivers = [connect(settings)]
        try:
            apply_schema(drivers[0])
            ctx = StageContext(drivers[0], None, root / "out", echo=lambda _: None)

            def reconnect() -> neo4j.Driver:
                drivers[-1].close()
                drivers.append(connect(settings))
                return drivers[-1]

            with peak_rss() as py_bulk:
                started = time.perf_counter()
                report, driver = bulk_load(ctx, config, settings, reconnect=reconnect)
                save_report(driver, report)
                bulk_s = time.perf_counter() - started
            loaded = _elements(driver)
            assert args.no_incremental or loaded == elements, (loaded, elements)
            elements = loaded
            backup = _round_trip(settings, driver, root) if args.backup else []
        finally:
            drivers[-1].close()
            server.stop(settings, timeout=60)
    notes = report.notes
    tool_s = float(str(notes["seconds: import tool"]))
    start_s = float(str(notes["seconds: server start"]))
    schema_s = float(str(notes["seconds: schema (constraints, indexes online)"]))
    fair_s = tool_s + start_s + schema_s
    rows = [
        ("incremental ingest (MERGE over Bolt)", ingest_s, py_ingest_mib),
        ("bulk load (db load), all of it", bulk_s, py_bulk["peak_mib"]),
        # (the build's own peak is in the notes, but this process ran the ingest before it)
        ("  build, streamed to CSV", float(str(notes["seconds: build and stream CSV"])), 0.0),
        (
            "  shared nodes, close CSV",
            float(str(notes["seconds: shared nodes and close CSV"])),
            0.0,
        ),
        ("  server stop", float(str(notes["seconds: server stop"])), 0.0),
        ("  server start", float(str(notes["seconds: server start"])), 0.0),
        (
            "  schema (constraints, indexes online)",
            float(str(notes["seconds: schema (constraints, indexes online)"])),
            0.0,
        ),
        ("reference: import tool on those CSVs", tool_s, 0.0),
        ("fair reference: tool + start + schema", fair_s, 0.0),
    ]
    if args.no_incremental:
        rows = rows[1:]
    head = (
        f"{'case':<40} {'seconds':>8} {'elements/s':>11} {'vs import tool':>15} "
        f"{'vs fair ref':>12} {'py MiB':>7}"
    )
    lines = [head, "-" * len(head)]
    for case, seconds, mib in rows:
        part = case.startswith("  ")
        rate = f"{elements / seconds:>11,.0f}" if not part else f"{'':>11}"
        ratio = f"{tool_s / seconds:>14.2f}x" if not part else f"{'':>15}"
        fair = f"{fair_s / seconds:>11.2f}x" if not part else f"{'':>12}"
        shown = f"{mib:>7.0f}" if mib else ""
        lines.append(f"{case:<40} {seconds:>8.1f} {rate} {ratio} {fair} {shown}")
    lines += [
        "",
        f"{n_tables} tables, {n_passages} passages; {elements:,} graph elements "
        f"({notes['nodes imported']:,} nodes + {notes['relationships imported']:,} "
        f"relationships from the import)"
        + (f"; Neo4j peak during ingest {db_peak:.0f} MiB" if db_peak else ""),
        *backup,
    ]
    print("\n".join(lines))
    if not args.no_markdown:
        command = " ".join(["python -m bench.bench_bulk", *sys.argv[1:]])
        write_markdown(
            Path("docs/benchmarks.md"),
            "First load at 1x OTT-QA: bulk import vs the fair reference (issue 33)"
            if args.all
            else "First load: incremental ingest vs bulk import (issue 18)",
            lines,
            note=f"`{command}`, each case on a private Neo4j of its own from empty (heap 1g, "
            "page cache 512m), 2-core machine; one run each. The references exclude the server "
            "stop before the tool.",
        )


if __name__ == "__main__":
    main()
