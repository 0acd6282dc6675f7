"""Embeddings for the offline web: every `Page` gets a 384-d all-MiniLM-L6-v2 vector.

Each page also records which embedder made its vector (`Page.embedder`, a name of
`embeddings.embedder_name`): the backends' vectors differ slightly, so the queries of a search
must be embedded by the same one (`query_backend`), and a build is never resumed with another.

The full-text and vector indexes themselves are schema (`seekgraph/cypher/agent/web_schema.cypher`,
applied with every schema); this module fills `Page.embedding` in batches. It is resumable by
construction: each pass reads only pages without an embedding, so a killed build continues
where it stopped and a finished one does nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import neo4j

from seekgraph.agent.errors import AgentError
from seekgraph.common.embeddings import EMBEDDER_NAME, Embedder, backend_of
from seekgraph.common.text import titled
from seekgraph.graphdb import cypher
from seekgraph.graphdb.stages import StageReport

EMBED_TEXT_CHARS = 1000  # MiniLM reads 256 word pieces; more text only costs time


def page_text_for_embedding(title: str, text: str) -> str:
    """What we embed for a page: its title, then the start of its text."""
    return titled(title, text)[:EMBED_TEXT_CHARS]


def embedding_counts(driver: neo4j.Driver, database: str | None = None) -> tuple[int, int]:
    """(pages, pages with an embedding)."""
    row = cypher.read(driver, "agent/count_page_embeddings", database=database)[0]
    return int(row["pages"]), int(row["embedded"])


def page_embedders(driver: neo4j.Driver, database: str | None = None) -> list[str]:
    """The names of the embedders whose vectors the pages carry ([] while none has one)."""
    rows = cypher.read(
        driver, "agent/find_page_embedders", database=database, unnamed=EMBEDDER_NAME
    )
    return [r["embedder"] for r in rows]


def query_backend(embedders: list[str]) -> str:
    """The backend that must embed search queries against pages embedded by `embedders`."""
    if len(embedders) != 1:
        raise AgentError(
            f"the pages carry vectors of {len(embedders)} embedders ({', '.join(embedders)}), "
            "not one: embed them again with one (REMOVE p.embedding, then `seekgraph web-index`)"
        )
    return backend_of(embedders[0])


def check_embedder(embedders: list[str], name: str) -> None:
    """Fail (one line) unless the pages' vectors, if any, are all `name`'s."""
    if embedders and embedders != [name]:
        raise AgentError(
            f"the pages are embedded by {', '.join(embedders)}, this embedder is {name}: "
            f"their vectors do not compare (set the [web-index] backend to "
            f"{backend_of(embedders[0])}, or REMOVE p.embedding and build the index again)"
        )


def build_embeddings(
    driver: neo4j.Driver,
    database: str | None,
    embedder: Embedder,
    *,
    batch_size: int = 256,
    max_pages: int | None = None,
    max_seconds: float | None = None,
    on_batch: Callable[[int], None] | None = None,
) -> StageReport:
    """Embed pages without an embedding, `batch_size` per write transaction.

    Stops after `max_pages` or `max_seconds` (the rest is picked up by the next run).
    Returns a report whose `kept` is the pages embedded in this run and `skipped` the pages
    that already had one. Resuming with another embedder than the pages' fails before any page
    is embedded (`check_embedder`).
    """
    check_embedder(page_embedders(driver, database), embedder.name)
    report = StageReport("web-index")
    total, already = embedding_counts(driver, database)
    report.skip(already)
    started = time.perf_counter()
    done = 0
    after = ""  # pages are embedded in page id order (see find_pages_without_embedding)
    while True:
        limit = batch_size if max_pages is None else min(batch_size, max_pages - done)
        if limit <= 0:
            break
        if max_seconds is not None and time.perf_counter() - started > max_seconds:
            break
        pages = cypher.read(
            driver,
            "agent/find_pages_without_embedding",
            database=database,
            limit=limit,
            after=after,
        )
        if not pages:
            break
        after = pages[-1]["page_id"]
        vectors = embedder.embed([page_text_for_embedding(p["title"], p["text"]) for p in pages])
        rows = [
            {"page_id": p["page_id"], "embedding": v} for p, v in zip(pages, vectors, strict=True)
        ]
        cypher.run_batches(
            driver,
            "agent/set_page_embeddings",
            rows,
            database=database,
            batch_size=batch_size,
            params={"embedder": embedder.name},
        )
        done += len(rows)
        report.keep(len(rows))
        if on_batch is not None:
            on_batch(len(rows))
    seconds = time.perf_counter() - started
    report.notes["pages"] = total
    report.notes["embedder"] = embedder.name
    report.notes["pages_per_second"] = round(done / seconds, 1) if seconds > 0 and done else 0.0
    report.notes["still_without_embedding"] = total - already - done
    return report.finish()
