"""First load of OTT-QA tables and passages: incremental ingest vs `seekgraph db load`.

In one run, each on a private server of its own from empty: `ingest` (batched MERGE over Bolt),
and the bulk load (`seekgraph.synth.ingest.bulk`: the same ingest into memory, CSV, server stop,
`neo4j-admin database import`, server start, schema) of the same data. Both build the same graph
(tests/test_bulk_load.py). (Run after the ingest on the same server, the bulk load's server stop
included the checkpoint of everything the ingest wrote: 10.6 s of 49.8 s at 1,000 tables.)
The reference is the import tool's own time on the bulk load's CSV files (JVM start included):
ratio = reference seconds / case seconds, on the same number of graph elements.

    .venv/bin/python -m bench.bench_bulk --tables 1000
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import neo4j

from bench.bench_load import connect, private_server
from bench.common import peak_rss, write_markdown
from bench.ottqa_sample import SHARED, sample
from seekgraph.graphdb import server
from seekgraph.graphdb.schema import apply_schema
from seekgraph.graphdb.stages import StageContext, save_report
from seekgraph.synth.ingest.bulk import bulk_load
from seekgraph.synth.ingest.config import IngestConfig
from seekgraph.synth.ingest.stage import run_ingest
from seekgraph.synth.ingest.tables import graph_counts


def _elements(driver: neo4j.Driver) -> int:
    return sum(n for kind, n in graph_counts(driver).items() if kind != "node:StageRun")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000, help="OTT-QA tables sampled.")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-markdown", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-bulk-") as tmp:
        root = Path(tmp)
        n_tables, n_passages = sample(SHARED, args.tables, args.seed, root / "data")
        config = IngestConfig(data=root / "data")
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
            assert _elements(driver) == elements, (_elements(driver), elements)
        finally:
            drivers[-1].close()
            server.stop(settings, timeout=60)
    notes = report.notes
    tool_s = float(str(notes["seconds: import tool"]))
    rows = [
        ("incremental ingest (MERGE over Bolt)", ingest_s, py_ingest["peak_mib"]),
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
    ]
    head = f"{'case':<40} {'seconds':>8} {'elements/s':>11} {'vs import tool':>15} {'py MiB':>7}"
    lines = [head, "-" * len(head)]
    for case, seconds, mib in rows:
        rate = f"{elements / seconds:>11,.0f}" if not case.startswith("  ") else f"{'':>11}"
        ratio = f"{tool_s / seconds:>14.2f}x" if not case.startswith("  ") else f"{'':>15}"
        shown = f"{mib:>7.0f}" if mib else ""
        lines.append(f"{case:<40} {seconds:>8.1f} {rate} {ratio} {shown}")
    lines += [
        "",
        f"{n_tables} tables, {n_passages} passages; {elements:,} graph elements "
        f"({notes['nodes imported']:,} nodes + {notes['relationships imported']:,} "
        f"relationships from the import); Neo4j peak during ingest "
        f"{db_ingest['peak_mib']:.0f} MiB",
    ]
    print("\n".join(lines))
    if not args.no_markdown:
        write_markdown(
            Path("docs/benchmarks.md"),
            "First load: incremental ingest vs bulk import (issue 18)",
            lines,
            note=f"`python -m bench.bench_bulk --tables {args.tables}`, each case on a private "
            "Neo4j of its own from empty (heap 1g, page cache 512m), 2-core machine; one run "
            "each. The reference excludes the server stop before the tool.",
        )


if __name__ == "__main__":
    main()
