"""Search and visit latency over the offline web, page embedding rate, full-text index build time.

Runs against the graph in $NEO4J_URI (load the corpus first, e.g. `seekgraph ingest pages
…/passages.train.jsonl.gz` and `seekgraph ingest tables …/tables.train.jsonl.gz`). Embeds pages
without an embedding for at most `--embed-seconds` (resumable; the rest later), then times
`search` (full-text only = the reference, and hybrid) and `visit` on sampled pages.

    .venv/bin/python -m bench.bench_web --queries 200 --embed-seconds 1200
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from agent.web.index import Embedder, build_embeddings, embedding_counts
from agent.web.tools import WebTools
from bench.common import Measurement, peak_rss, table, write_markdown
from graphdb import cypher
from graphdb.driver import open_driver
from graphdb.schema import apply_schema
from graphdb.settings import resolve


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def timed(case: str, calls: list[tuple[str, dict[str, object]]], tools: WebTools) -> Measurement:
    latencies = []
    for name, arguments in calls:
        start = time.perf_counter()
        tools.call(name, arguments)
        latencies.append(time.perf_counter() - start)
    m = Measurement(case, seconds=[sum(latencies)], items=len(calls))
    m.extra = {
        "p50_ms": 1000 * percentile(latencies, 0.5),
        "p95_ms": 1000 * percentile(latencies, 0.95),
        "mean_ms": 1000 * statistics.mean(latencies),
    }
    return m


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--embed-seconds", type=float, default=1200.0)
    parser.add_argument("--skip-index-rebuild", action="store_true")
    args = parser.parse_args()
    driver = open_driver(resolve().connection)
    database = None
    notes: list[str] = []
    by_source = cypher.read(driver, "agent/count_pages_by_source", database=database)
    corpus = ", ".join(f"{r['source']}: {r['pages']:,}" for r in by_source)
    notes.append(f"corpus: {corpus}")

    if not args.skip_index_rebuild:
        cypher.write(driver, "agent/drop_page_text_index", database=database)
        start = time.perf_counter()
        apply_schema(driver, database)  # re-creates page_text and waits until it is ONLINE
        notes.append(
            f"full-text index build (drop + create + await ONLINE): "
            f"{time.perf_counter() - start:.1f} s"
        )

    embedder = Embedder()
    embedder.embed(["warm-up"])  # model load is not part of the rate
    with peak_rss() as mem:
        report = build_embeddings(
            driver, database, embedder, batch_size=256, max_seconds=args.embed_seconds
        )
    pages, embedded = embedding_counts(driver, database)
    notes.append(
        f"embedding: {report.kept:,} pages this run in {report.seconds:.0f} s "
        f"({report.notes['pages_per_second']} pages/s on CPU, peak RSS "
        f"{mem['peak_mib']:.0f} MiB); {embedded:,} of {pages:,} pages embedded in all"
    )
    if embedded < pages:
        rate = float(str(report.notes["pages_per_second"])) or 1.0
        notes.append(
            f"NOT all pages are embedded: the rest needs about "
            f"{(pages - embedded) / rate / 60:.0f} more minutes at this rate "
            "(`seekgraph web index` resumes); the vector half of hybrid search "
            "covers only the embedded pages"
        )

    rng = random.Random(0)
    total = sum(r["pages"] for r in by_source)
    sample = []
    for _ in range(args.queries):
        sample += cypher.read(
            driver,
            "agent/sample_pages",
            database=database,
            source=None,
            skip=rng.randrange(max(1, total - 1)),
            limit=1,
        )
    searches = []
    for page in sample:
        words = page["text"].split()
        start = rng.randrange(max(1, len(words) - 6))
        searches.append(("search", {"query": " ".join(words[start : start + 6]) or page["title"]}))
    visits = [("visit", {"url": p["page_id"], "goal": p["title"] + " facts"}) for p in sample]
    fulltext = WebTools(driver, database)
    hybrid = WebTools(driver, database, embedder=embedder)
    rows = [
        timed("search full-text (reference)", searches, fulltext),
        timed("search hybrid (full-text + vector, RRF)", searches, hybrid),
        timed("visit extractive", visits, fulltext),
    ]
    lines = table(rows, "search full-text (reference)", unit="calls")
    lines.append("")
    lines.append(f"{'case':<40} {'p50 ms':>8} {'p95 ms':>8} {'mean ms':>8}")
    for r in rows:
        lines.append(
            f"{r.case:<40} {r.extra['p50_ms']:>8.1f} {r.extra['p95_ms']:>8.1f} "
            f"{r.extra['mean_ms']:>8.1f}"
        )
    for line in [*notes, "", *lines]:
        print(line)
    write_markdown(
        Path("docs/benchmarks.md"),
        "Offline web: search/visit latency, embeddings",
        lines,
        note="\n".join(f"- {n}" for n in notes)
        + f"\n- {args.queries} queries (6 consecutive words of a random page), "
        "visits of the same pages; 2-core shared machine; Neo4j 5.26 as configured for the run.",
    )


if __name__ == "__main__":
    main()
