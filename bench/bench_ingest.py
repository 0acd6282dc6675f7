"""Ingest of the OTT-QA tables and their passages into a private server, stage by stage.

Measures wall time, table rows/s and graph elements (nodes + relationships) per second of each
stage, peak RSS of this process and of Neo4j, and tables kept/rejected by reason. The reference,
measured in the same run on the same server, is the plain batched ``UNWIND ... MERGE`` loader of
`bench.bench_load` on a generated graph (ratio = stage rate / reference rate, printed as
"vs reference"; below 1 means the stage writes fewer elements per second than the plain loader).

    .venv/bin/python -m bench.bench_ingest                 # all 8,102 tables, 166k passages
    .venv/bin/python -m bench.bench_ingest --limit 500     # a slice, and its passages only
"""

from __future__ import annotations

import argparse
import gzip
import json
import logging
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import neo4j

from bench.bench_load import connect, generate, load_unwind, private_server
from bench.common import Measurement, peak_rss, write_markdown
from seekgraph.graphdb import cypher, server
from seekgraph.graphdb.schema import apply_schema
from seekgraph.graphdb.stages import StageReport
from seekgraph.synth.ingest.config import IngestConfig
from seekgraph.synth.ingest.pages import ingest_pages
from seekgraph.synth.ingest.readers import read_ottqa, read_pages
from seekgraph.synth.ingest.tables import graph_counts, ingest_tables
from seekgraph.synth.relations import normalise_relations

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "ottqa"


def graph_size(driver: neo4j.Driver) -> int:
    """Nodes + relationships, without stage bookkeeping (each run adds a StageRun)."""
    counts = graph_counts(driver)
    return sum(n for kind, n in counts.items() if kind != "node:StageRun")


def slice_inputs(tables: Path, passages: Path, limit: int, folder: Path) -> tuple[Path, Path]:
    """The first `limit` tables and only the passages their cells link to."""
    links: set[str] = set()
    out_tables = folder / "tables.jsonl"
    with gzip.open(tables, "rt", encoding="utf-8") as src, open(out_tables, "w") as dst:
        for i, line in enumerate(src):
            if i >= limit:
                break
            dst.write(line)
            for row in json.loads(line)["data"]:
                for cell in row:
                    links.update(cell[1])
    out_pages = folder / "passages.jsonl"
    with gzip.open(passages, "rt", encoding="utf-8") as src, open(out_pages, "w") as dst:
        for line in src:
            if json.loads(line)["id"] in links:
                dst.write(line)
    return out_tables, out_pages


def timed(
    case: str, fn: Callable[[], Any], neo4j_pid: int
) -> tuple[Measurement, Any, dict[str, float]]:
    with peak_rss() as py, peak_rss(neo4j_pid) as db:
        start = time.perf_counter()
        result = fn()
        seconds = time.perf_counter() - start
    m = Measurement(case, [seconds])
    return m, result, {"python_mib": py["peak_mib"], "neo4j_mib": db["peak_mib"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=Path, default=SHARED / "tables.train.jsonl.gz")
    parser.add_argument("--passages", type=Path, default=SHARED / "passages.train.jsonl.gz")
    parser.add_argument("--limit", type=int, default=0, help="First N tables only (0 = all).")
    parser.add_argument("--reference-size", type=int, default=20_000)
    parser.add_argument("--no-markdown", action="store_true")
    args = parser.parse_args()
    logging.getLogger("neo4j.notifications").setLevel(logging.ERROR)
    config = IngestConfig()
    with tempfile.TemporaryDirectory(prefix="bench-ingest-") as tmp:
        root = Path(tmp)
        tables_path, pages_path = args.tables, args.passages
        if args.limit:
            tables_path, pages_path = slice_inputs(args.tables, args.passages, args.limit, root)
        settings = private_server(root)
        status = server.start(settings)
        try:
            driver = connect(settings)
            apply_schema(driver)
            pid = int(status.pid or 0)
            # Reference first, on the empty server, then removed (as in bench.bench_load).
            cypher.write(driver, "bench/bench_item_constraint")
            nodes, rels = generate(args.reference_size)
            ref, _, ref_mem = timed(
                "reference: UNWIND MERGE loader",
                lambda: load_unwind(driver, nodes, rels, 1000),
                pid,
            )
            ref.items = len(nodes) + len(rels)
            print(f"reference: {ref.items / ref.median:,.0f} elements/s", flush=True)
            with driver.session() as session:
                session.run(cypher.query("bench/delete_bench_graph")).consume()
            rows: list[tuple[Measurement, int, int, dict[str, float]]] = []

            def stage(case: str, fn: Callable[[], StageReport], table_rows: int = 0) -> StageReport:
                before = graph_size(driver)
                m, report, mem = timed(case, fn, pid)
                m.items = graph_size(driver) - before
                rows.append((m, table_rows, m.items, mem))
                print(f"{case}: {m.median:.1f}s", *report.summary_lines(), sep="\n  ", flush=True)
                return report

            tables = stage(
                "ingest tables", lambda: ingest_tables(driver, read_ottqa(tables_path), config)
            )
            rows[-1] = (
                rows[-1][0],
                int(str(tables.notes.get("rows written", 0))),
                rows[-1][2],
                rows[-1][3],
            )
            stage("ingest passages", lambda: ingest_pages(driver, read_pages(pages_path), config))
            stage("relations (rules + MiniLM)", lambda: normalise_relations(driver))
            size = graph_size(driver)
            again = stage(
                "ingest tables again (idempotent)",
                lambda: ingest_tables(driver, read_ottqa(tables_path), config),
            )
            assert graph_size(driver) == size, "re-running ingest changed the graph"
            driver.close()
        finally:
            server.stop(settings, timeout=60)
    ref_rate = ref.items / ref.median
    head = (
        f"{'stage':<36} {'seconds':>8} {'table rows/s':>13} {'elements':>10} "
        f"{'elements/s':>11} {'vs reference':>13} {'py MiB':>7} {'neo4j MiB':>10}"
    )
    lines = [head, "-" * len(head)]
    for m, trows, elements, mem in [*rows, (ref, 0, ref.items, ref_mem)]:
        rate = elements / m.median if m.median else 0.0
        ratio = f"{rate / ref_rate:.2f}x" if rate > 0 else "-"
        trate = f"{trows / m.median:,.0f}" if trows else "-"
        lines.append(
            f"{m.case:<36} {m.median:>8.1f} {trate:>13} {elements:>10,} "
            f"{rate:>11,.0f} {ratio:>13} {mem['python_mib']:>7.0f} "
            f"{mem['neo4j_mib']:>10.0f}"
        )
    lines.append("")
    lines.append(
        f"tables kept {tables.kept}, rejected {tables.rejected}: "
        + ", ".join(f"{k}={v}" for k, v in tables.reasons.most_common())
    )
    lines.append(
        f"re-run: kept {again.kept}, skipped {again.skipped}, graph unchanged ({size:,} elements)"
    )
    for line in lines:
        print(line)
    if not args.no_markdown:
        scope = f"first {args.limit} tables" if args.limit else "all tables"
        write_markdown(
            Path("docs/benchmarks.md"),
            "Ingest: OTT-QA tables and passages",
            lines,
            note=f"`python -m bench.bench_ingest{' --limit ' + str(args.limit) if args.limit else ''}` "
            f"({scope} of tables.train.jsonl.gz and the passages they link to) on a "
            "private Neo4j (heap 1g, page cache 512m), 2-core machine shared with other "
            "work; one run per stage. Elements = nodes + relationships created.",
        )


if __name__ == "__main__":
    main()
