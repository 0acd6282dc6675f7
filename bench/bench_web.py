"""Search and visit latency over the offline web, page embedding rate, full-text index build time.

Runs against the graph in $NEO4J_URI (load the corpus first, e.g. `seekgraph ingest pages
…/passages.train.jsonl.gz` and `seekgraph ingest tables …/tables.train.jsonl.gz`). Embeds pages
without an embedding for at most `--embed-seconds` (resumable; the rest later), then times
`search` (full-text only = the reference, and hybrid) and `visit` on sampled pages, and how
often each ranking finds the page a query was made from.

    .venv/bin/python -m bench.bench_web --queries 200 --embed-seconds 1200 [--backend torch]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.common import Measurement, peak_rss, table, write_markdown
from bench.search_questions import BM25Baseline, read_pages, recall, sample_questions
from seekgraph.agent.config import WebIndexConfig
from seekgraph.agent.web.index import build_embeddings, embedding_counts
from seekgraph.agent.web.search_query import content_words, fulltext_query, lucene_query
from seekgraph.agent.web.tools import WebTools, segments
from seekgraph.common.config import ConfigFile, resolve_settings
from seekgraph.common.embeddings import BACKENDS, Embedder
from seekgraph.common.text import normalize
from seekgraph.graphdb import cypher
from seekgraph.graphdb.driver import open_driver
from seekgraph.graphdb.schema import apply_schema


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


def query_sets(sample: list[dict[str, Any]], rng: random.Random) -> dict[str, list[str]]:
    """Three queries per sampled page, each of which that page answers.

    fragment: 6 consecutive words of the page; description: the content words of its first
    sentence minus the title's (what the page says of its subject without naming it, as a
    clue does); title: the page's title (a lookup by name).
    """
    sets: dict[str, list[str]] = {"fragment": [], "description": [], "title": []}
    for page in sample:
        words = page["text"].split()
        start = rng.randrange(max(1, len(words) - 6))
        sets["fragment"].append(" ".join(words[start : start + 6]) or page["title"])
        first = (segments(page["text"]) or [page["title"]])[0]
        named = content_words(page["title"])
        clue = [w for w in normalize(first).split() if w not in named and len(w) > 1]
        sets["description"].append(" ".join(clue[:12]) or page["title"])
        sets["title"].append(page["title"])
    return sets


def source_found(rank: Callable[[str], list[str]], queries: list[str], sources: list[str]) -> float:
    """Share of queries whose source page is among the ranked pages."""
    return sum(src in rank(q) for q, src in zip(queries, sources, strict=True)) / len(queries)


def question_recall(
    driver: Any, database: str | None, embedder: Embedder | None, n_tables: int, k: int = 10
) -> tuple[list[str], list[str]]:
    """Recall@k of the gold table and passage on questions written from table rows
    (`bench.search_questions`), for BM25 and the offline web's rankings; (lines, notes).

    The full-text variants differ in the Lucene query only
    (`seekgraph.agent.web.search_query.fulltext_query` and the weights it takes); the table says which the search uses. Ratios are against BM25
    on the same questions and pages."""
    questions = sample_questions(driver, database, n_tables, seed=1)
    started = time.perf_counter()
    bm25 = BM25Baseline(read_pages(driver, database))
    notes = [
        f"questions: {len(questions)} from {n_tables} random kept tables "
        f"({sum(q.kind == 'named' for q in questions)} named, "
        f"{sum(q.kind == 'hop' for q in questions)} hop); BM25 index built in "
        f"{time.perf_counter() - started:.0f} s"
    ]

    def fulltext(**weights: Any) -> Callable[[str], list[str]]:
        def rank(q: str) -> list[str]:
            text = fulltext_query(q, **weights)
            if not text:
                return []
            rows = cypher.read(
                driver,
                "agent/search_pages_fulltext",
                database=database,
                query=text,
                fetch=k,
                k=k,
                year=None,
            )
            return [r["page_id"] for r in rows]

        return rank

    used = WebTools(driver, database, top_k=k)
    rankers: dict[str, Callable[[str], list[str]]] = {
        "BM25 (bm25s, title + text)": lambda q: bm25.ranked(q, k),
        "full-text as searched (used)": lambda q: [p["page_id"] for p in used.ranked(q)],
        "full-text, all words, title 1 (r3)": fulltext(stopwords=False, title=1.0, phrase=2.0),
    }
    for title in (1.0, 0.5, 0.25, 0.1, 0.0):
        rankers[f"full-text, content words, title {title:g}"] = fulltext(
            stopwords=True, title=title, phrase=0.0
        )
    if embedder is not None:
        hybrid = WebTools(driver, database, top_k=k, embedder=embedder)
        rankers[f"hybrid (vector weight {hybrid.vector_weight:g})"] = lambda q: [
            p["page_id"] for p in hybrid.ranked(q)
        ]
    kinds = ("named", "hop")
    head = (
        f"{'ranking (recall@' + str(k) + ')':<48}"
        + "".join(f"{f'{what} {kind}':>15}" for what in ("table", "passage") for kind in kinds)
        + f"{'table':>9}{'passage':>9}{'vs BM25 t':>10}{'vs BM25 p':>10}"
    )
    lines = [head, "-" * len(head)]
    base: tuple[float, float] | None = None
    for label, rank in rankers.items():
        ranked = [rank(q.text) for q in questions]
        cells = []
        for what in ("table_page", "passage"):
            for kind in kinds:
                pick = [i for i, q in enumerate(questions) if q.kind == kind]
                cells.append(
                    recall([ranked[i] for i in pick], [getattr(questions[i], what) for i in pick])
                )
        total_t = recall(ranked, [q.table_page for q in questions])
        total_p = recall(ranked, [q.passage for q in questions])
        base = base or (total_t, total_p)
        lines.append(
            f"{label:<48}"
            + "".join(f"{c:>15.1%}" for c in cells)
            + f"{total_t:>9.1%}{total_p:>9.1%}{total_t / base[0]:>9.2f}x{total_p / base[1]:>9.2f}x"
        )
    examples = [f"  e.g. [{q.kind}] {q.text}" for q in questions[:4]]
    return lines, notes + examples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--embed-seconds", type=float, default=1200.0)
    parser.add_argument("--skip-index-rebuild", action="store_true")
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default=WebIndexConfig().backend,
        help="embedding runtime of pages and queries (as [web-index] backend)",
    )
    parser.add_argument(
        "--question-tables", type=int, default=1000, help="tables the recall questions come from"
    )
    args = parser.parse_args()
    driver = open_driver(resolve_settings(ConfigFile()).connection)
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

    embedder = Embedder(backend=args.backend)
    embedder.embed(["warm-up"])  # model load is not part of the rate or the latencies
    if args.embed_seconds > 0:
        with peak_rss() as mem:
            report = build_embeddings(
                driver, database, embedder, batch_size=256, max_seconds=args.embed_seconds
            )
        rate = float(str(report.notes["pages_per_second"]))
        notes.append(
            f"embedding: {report.kept:,} pages this run in {report.seconds:.0f} s "
            f"({rate} pages/s on CPU, {embedder.name}, peak RSS {mem['peak_mib']:.0f} MiB)"
        )
    else:
        rate = 0.0
        notes.append("embedding: skipped (--embed-seconds 0)")
    pages, embedded = embedding_counts(driver, database)
    notes.append(f"{embedded:,} of {pages:,} pages have an embedding")
    if embedded < pages:
        remaining = (
            f"about {(pages - embedded) / rate / 60:.0f} more minutes at this rate"
            if rate > 0
            else f"{pages - embedded:,} more pages"
        )
        notes.append(
            f"NOT all pages are embedded: the rest needs {remaining} "
            "(`seekgraph web-index` resumes); the vector half of hybrid search "
            "covers only the embedded pages"
        )

    # queries are embedded as the agent's tools embed them (one thread, the pages' backend)
    query_embedder = Embedder(threads=1, backend=args.backend)
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
    sets = query_sets(sample, rng)
    sources = [p["page_id"] for p in sample]
    searches: list[tuple[str, dict[str, object]]] = [
        ("search", {"query": q}) for q in sets["fragment"]
    ]
    visits = [("visit", {"url": p["page_id"], "goal": p["title"] + " facts"}) for p in sample]
    fulltext = WebTools(driver, database)
    hybrid = WebTools(driver, database, embedder=query_embedder)
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

    def by_cypher(name: str, make: Callable[[str], dict[str, Any]]) -> Callable[[str], list[str]]:
        def rank(query: str) -> list[str]:
            params = make(query)
            if not params:
                return []
            rows = cypher.read(driver, name, database=database, year=None, **params)
            return [r["page_id"] for r in rows]

        return rank

    top = fulltext.top_k
    # one instance: it counts the embedded pages once (a count reads every page's vector)
    equal_weights = WebTools(driver, database, embedder=query_embedder, vector_weight=1.0)
    rankers: dict[str, Callable[[str], list[str]]] = {
        "full-text, bag of words only": by_cypher(
            "agent/search_pages_fulltext",
            lambda q: {"query": lucene_query(q), "fetch": top, "k": top} if lucene_query(q) else {},
        ),
        "full-text, bag + phrase (used)": lambda q: [p["page_id"] for p in fulltext.ranked(q)],
        "vector only": by_cypher(
            "agent/search_pages_vector",
            # fetch as `ranked` does: the approximate (HNSW) top 5 is worse when asked for 5
            lambda q: {"vector": query_embedder.embed([q])[0], "fetch": 3 * top, "k": top},
        ),
        "hybrid, vector weight 1": lambda q: [p["page_id"] for p in equal_weights.ranked(q)],
        f"hybrid, vector weight {hybrid.vector_weight:g} (used)": lambda q: [
            p["page_id"] for p in hybrid.ranked(q)
        ],
    }
    lines.append("")
    lines.append(f"source page in the top {top}")
    lines.append(f"{'ranking':<40}" + "".join(f"{name:>13}" for name in sets))
    for label, rank in rankers.items():
        found = [source_found(rank, queries, sources) for queries in sets.values()]
        lines.append(f"{label:<40}" + "".join(f"{f:>13.1%}" for f in found))
    if args.question_tables > 0:
        q_lines, q_notes = question_recall(
            driver, database, query_embedder if embedded else None, args.question_tables
        )
        lines += ["", *q_lines]
        notes += q_notes
    for line in [*notes, "", *lines]:
        print(line)
    write_markdown(
        Path("docs/benchmarks.md"),
        "Offline web: search/visit latency, embeddings",
        lines,
        note="\n".join(f"- {n}" for n in notes)
        + f"\n- {args.queries} random pages; latency: a query of 6 consecutive words of each "
        "page, and a visit of it; 'source page in the top k': how often the page a query was "
        "made from is among the results (`query_sets` in the bench says how each kind is "
        "made); 2-core shared machine; Neo4j 5.26 as configured for the run.",
    )


if __name__ == "__main__":
    main()
