"""Which tree roots are "on a related topic": components of the root-similarity graph.

Two roots are related when the cosine similarity of their embeddings (the packaged
all-MiniLM-L6-v2, loaded offline) is at least `threshold`; the biclique search then runs on
each connected component. Components chain: on the 7,891 OTT-QA trees one component at 0.45
holds 7,621 of them, which is no topic at all and has more maximal bicliques than can be
enumerated. `topic_groups` therefore splits a component larger than `max_size` again at a
stricter threshold (``+ step``), until every group is small enough.

The token-overlap measure (Jaccard of content words) exists only as an explicit choice
(``method="tokens"``) for machines without the model: it is never used as a silent fallback.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from seekgraph.common.embeddings import Embedder, EmbedderError
from seekgraph.graphdb.ids import stable_id
from seekgraph.synth.errors import SynthError

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


# On torch, not the faster int8 ONNX backend: embedding the roots is seconds, and int8's
# slightly other vectors would move trees across a threshold, hence other topic groups and other
# tasks. The memoised grouping's digest names it (union_groups).
EMBEDDER = Embedder(backend="torch")


class SimilarityError(SynthError):
    """The embedding model cannot be loaded (use ``--similarity tokens`` deliberately)."""


def embed(texts: Sequence[str]) -> np.ndarray:
    """Unit-norm embeddings of `texts` from the packaged all-MiniLM-L6-v2 (no hub access)."""
    try:
        return EMBEDDER.embed_array(texts)
    except EmbedderError as e:
        raise SimilarityError(f"{e}; or choose --similarity tokens explicitly", hint=e.hint) from e


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


@dataclass(frozen=True)
class SimilarPairs:
    """The pairs ``i < j`` at least `threshold` similar, as parallel arrays: a sparse graph
    whose memory grows with the pairs kept, not with n²."""

    rows: np.ndarray
    cols: np.ndarray
    sims: np.ndarray
    n: int


def similar_pairs(
    texts: Sequence[str],
    threshold: float,
    method: Method = "embedding",
    *,
    neighbours: int = 64,
    block: int = 1024,
) -> SimilarPairs:
    """The pairs of `texts` at least `threshold` similar, each text keeping its `neighbours`
    most similar others (a pair is kept when either end keeps it).

    Embeddings are compared a block of rows at a time (memory O(block·n + pairs)); time stays
    O(n²·d). With fewer than `neighbours` + 1 texts this is exactly the threshold graph; above,
    a text with more close neighbours keeps its closest, which only thins the giant components
    `topic_groups` splits anyway.
    """
    n = len(texts)
    if method == "tokens":
        sims = similarity_matrix(texts, method)
        rows, cols = np.nonzero(np.triu(sims >= threshold, k=1))
        return SimilarPairs(rows, cols, sims[rows, cols], n)
    if method != "embedding":
        raise SimilarityError(f"unknown similarity method {method!r} (embedding or tokens)")
    vectors = embed(texts) if n else np.zeros((0, 1), dtype=np.float32)
    keep = min(neighbours, max(n - 1, 0))
    found_rows, found_cols, found_sims = [], [], []
    for start in range(0, n, block):
        part = np.clip(vectors[start : start + block] @ vectors.T, -1.0, 1.0)
        local = np.arange(part.shape[0])
        part[local, start + local] = -np.inf  # not its own neighbour
        if keep < n - 1:
            top = (
                np.argpartition(-part, keep - 1, axis=1)[:, :keep]
                if keep
                else local[:, None][:, :0]
            )
        else:
            top = np.tile(np.arange(n), (part.shape[0], 1))
        values = np.take_along_axis(part, top, axis=1)
        hit = values >= threshold
        r = np.repeat(start + local, hit.sum(axis=1))
        found_rows.append(r)
        found_cols.append(top[hit])
        found_sims.append(values[hit])
    if not found_rows:
        empty = np.zeros(0, dtype=np.int64)
        return SimilarPairs(empty, empty, np.zeros(0, dtype=np.float32), n)
    r, c, v = np.concatenate(found_rows), np.concatenate(found_cols), np.concatenate(found_sims)
    low, high = np.minimum(r, c), np.maximum(r, c)
    _, first = np.unique(low.astype(np.int64) * n + high, return_index=True)
    return SimilarPairs(low[first], high[first], v[first], n)


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
    pairs = similar_pairs(texts, threshold, method)
    return [[ids[i] for i in g] for g in _components(pairs, list(range(len(ids))), threshold)]


def _components(pairs: SimilarPairs, members: list[int], threshold: float) -> list[list[int]]:
    """Connected components (sorted index lists) of `members` under ``sim >= threshold``."""
    inside = np.zeros(pairs.n, dtype=bool)
    inside[members] = True
    parent = {m: m for m in members}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    use = inside[pairs.rows] & inside[pairs.cols] & (pairs.sims >= threshold)
    for i, j in zip(pairs.rows[use].tolist(), pairs.cols[use].tolist(), strict=True):
        parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for member in members:
        groups.setdefault(find(member), []).append(member)
    return sorted((sorted(g) for g in groups.values()), key=lambda g: g[0])


@dataclass(frozen=True)
class TopicGroup:
    """Trees on one topic: a component of the root-similarity graph at `threshold`."""

    trees: tuple[str, ...]
    threshold: float

    @property
    def group_id(self) -> str:
        return stable_id("topic-group", list(self.trees))


def topic_groups(
    ids: Sequence[str],
    texts: Sequence[str],
    *,
    threshold: float,
    max_size: int,
    step: float = 0.05,
    min_size: int = 2,
    method: Method = "embedding",
    keep: Callable[[list[str]], list[str]] | None = None,
    neighbours: int = 64,
) -> tuple[list[TopicGroup], list[TopicGroup]]:
    """Topic groups of at most `max_size` ids, and the groups that could not be split enough.

    A component at `threshold` is first narrowed by `keep` (for Union: the trees that share an
    anchor with another tree of the component); if it still has more than `max_size` members
    it is split into the components of its members at ``threshold + step``, and so on. Groups
    with fewer than `min_size` members are dropped (they cannot form a biclique). A group still
    too large at similarity 1.0 (identical roots) is returned in the second list. Similarity
    is a sparse graph of each root's `neighbours` closest roots (`similar_pairs`), never an
    n x n matrix.

    >>> groups, too_large = topic_groups(
    ...     ["a", "b", "c", "d"], ["Booker Prize", "Booker Prize winners", "Booker", "Capitals"],
    ...     threshold=0.3, max_size=2, method="tokens")
    >>> [(g.trees, g.threshold) for g in groups], too_large
    ([(('a', 'b'), 0.55)], [])
    """
    if max_size < min_size:
        raise SimilarityError(f"max_size ({max_size}) must be at least min_size ({min_size})")
    if not ids:
        return [], []
    pairs = similar_pairs(texts, threshold, method, neighbours=neighbours)
    done: list[TopicGroup] = []
    too_large: list[TopicGroup] = []
    pending = [(list(range(len(ids))), threshold)]
    while pending:
        members, level = pending.pop()
        for component in _components(pairs, members, level):
            names = [ids[i] for i in component]
            if keep is not None and len(names) >= min_size:
                wanted = set(keep(names))
                component = [i for i in component if ids[i] in wanted]
            if len(component) < min_size:
                continue
            group = TopicGroup(tuple(sorted(ids[i] for i in component)), round(level, 6))
            if len(component) <= max_size:
                done.append(group)
            elif level >= 1.0:
                too_large.append(group)
            else:
                pending.append((component, min(1.0, level + step)))

    def largest_first(group: TopicGroup) -> tuple[int, tuple[str, ...]]:
        return -len(group.trees), group.trees

    return sorted(done, key=largest_first), sorted(too_large, key=largest_first)
