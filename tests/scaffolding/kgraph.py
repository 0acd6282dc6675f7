"""Write a small `KGraph` into Neo4j in the shape of docs/schema.md §1 (tests, benches, link data).

The real graph comes from `seekgraph ingest`; this loader exists so the property tests can put a
random graph on the server and compare the compiled query with the Python evaluator, and so the
bench can load the Wikispeedia link graph (pages, links, one entity per page) on its own server.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import neo4j

from seekgraph.synth.shaper.evaluate import KGraph
from tests.scaffolding import write_batches


def merge_kgraph(
    driver: neo4j.Driver,
    graph: KGraph,
    database: str | None = None,
    *,
    source: str = "kgraph",
    table_id: str = "kgraph",
) -> None:
    """MERGE every node, FACT edge and page link of `graph` (idempotent)."""
    refs = set(graph.names) | {s for s, _, _ in graph.facts} | {o for _, _, o in graph.facts}
    refs |= {s for s, *_ in graph.table_facts} | {o for _, _, o, _ in graph.table_facts}
    refs |= {a for a, _ in graph.links} | {b for _, b in graph.links}
    linked = {a for a, _ in graph.links} | {b for _, b in graph.links}
    rows = [
        {
            "ref": ref,
            "label": graph.label(ref),
            "name": graph.names.get(ref, ref),
            "page": ref in linked,
            "source": source,
        }
        for ref in sorted(refs)
    ]
    write_batches(driver, "merge_kgraph_nodes", rows, database=database)
    facts = [
        {"subject": s, "relation": r, "object": o, "table_id": table_id}
        for s, r, o in sorted(graph.facts)
    ]
    facts += [
        {"subject": s, "relation": r, "object": o, "table_id": t}
        for s, r, o, t in sorted(graph.table_facts)
    ]
    write_batches(driver, "merge_kgraph_facts", facts, database=database)
    links = [{"source": a, "target": b} for a, b in sorted(graph.links)]
    write_batches(driver, "merge_kgraph_links", links, database=database, batch_size=5000)


def read_wikispeedia(folder: Path) -> KGraph:
    """The Wikispeedia articles as a link-only `KGraph` (entity ids ``/wiki/Name``)."""
    from seekgraph.synth.ingest.records import wiki_id

    graph = KGraph()
    with gzip.open(folder / "articles.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            article = json.loads(line)
            source = wiki_id(article["id"])
            graph.names[source] = article.get("title") or article["id"].replace("_", " ")
            for target in article.get("out_links", []):
                if wiki_id(target) != source:  # the ingest drops self-links too
                    graph.links.add((source, wiki_id(target)))
    return graph
