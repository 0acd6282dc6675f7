"""Topic groups of the Union stage: components of the root-similarity graph, split again at
stricter thresholds while too large. Checked against brute-force connectivity on random roots."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seekgraph.synth.leaper.topics import (
    SimilarityError,
    TopicGroup,
    related_components,
    similarity_matrix,
    topic_groups,
)

WORDS = ["booker", "prize", "nobel", "medal", "cup", "league", "war", "river"]


def _connected(members: list[int], sims, threshold: float) -> bool:
    """Brute force: is `members` connected under sims >= threshold (using only its own nodes)?"""
    seen, todo = {members[0]}, [members[0]]
    while todo:
        i = todo.pop()
        for j in members:
            if j not in seen and sims[i, j] >= threshold:
                seen.add(j)
                todo.append(j)
    return len(seen) == len(members)


roots = st.lists(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join),
    min_size=0,
    max_size=14,
)


@settings(max_examples=60, deadline=None)
@given(texts=roots, max_size=st.integers(2, 6), threshold=st.sampled_from([0.0, 0.2, 0.4]))
def test_groups_are_small_disjoint_connected_parts_of_components(
    texts: list[str], max_size: int, threshold: float
) -> None:
    ids = [f"t{i:02d}" for i in range(len(texts))]
    groups, too_large = topic_groups(
        ids, texts, threshold=threshold, max_size=max_size, step=0.1, method="tokens"
    )
    sims = similarity_matrix(texts, "tokens") if texts else None
    index = {t: i for i, t in enumerate(ids)}
    base = [set(c) for c in related_components(ids, texts, threshold=threshold, method="tokens")]
    seen: set[str] = set()
    for group in groups + too_large:
        assert len(group.trees) >= 2
        assert not seen & set(group.trees)  # disjoint
        seen |= set(group.trees)
        assert any(set(group.trees) <= c for c in base)  # inside one base component
        members = [index[t] for t in group.trees]
        assert _connected(members, sims, group.threshold)
        assert group.threshold >= threshold
    assert all(len(g.trees) <= max_size for g in groups)
    assert all(len(g.trees) > max_size and g.threshold >= 1.0 for g in too_large)
    # nothing to split: the groups are the base components
    if max_size >= len(ids):
        assert sorted(g.trees for g in groups) == sorted(
            tuple(sorted(c)) for c in base if len(c) >= 2
        )


def test_keep_narrows_every_component_before_its_size_is_judged() -> None:
    texts = ["booker prize", "booker prize", "booker prize", "nobel prize"]
    ids = ["a", "b", "c", "d"]
    groups, too_large = topic_groups(
        ids,
        texts,
        threshold=0.3,
        max_size=2,
        method="tokens",
        keep=lambda g: [t for t in g if t != "c"],
    )
    # {a, b, c, d} at 0.3 (d shares "prize"); without c it is still too large, so it is split
    # at 0.35, where d falls away
    assert groups == [TopicGroup(("a", "b"), 0.35)]
    assert too_large == []


def test_identical_roots_beyond_max_size_are_reported_not_split() -> None:
    groups, too_large = topic_groups(
        ["a", "b", "c"], ["cup", "cup", "cup"], threshold=0.5, max_size=2, method="tokens"
    )
    assert groups == []
    assert [g.trees for g in too_large] == [("a", "b", "c")]


def test_max_size_below_min_size_is_an_error() -> None:
    with pytest.raises(SimilarityError, match="max_size"):
        topic_groups(["a"], ["cup"], threshold=0.5, max_size=1, min_size=2, method="tokens")


ROOTS = [
    "Booker Prize winners",
    "Booker Prize shortlisted novels",
    "Nobel Prize in Literature laureates",
    "Nobel laureates in Physics",
    "FIFA World Cup finals",
    "UEFA European Championship finals",
    "Premier League top scorers",
    "Longest rivers of Europe",
    "Rivers of Germany",
    "Battles of the Napoleonic Wars",
    "Battles of the American Civil War",
    "Capital cities of Africa",
]


@pytest.mark.slow
def test_similar_pairs_are_the_threshold_graph_block_by_block() -> None:
    """The sparse pairs (the packaged MiniLM) equal the dense threshold graph, whatever the
    block size, while each root may keep all its neighbours; with fewer neighbours each root
    keeps its closest ones."""
    import numpy as np

    from seekgraph.synth.leaper.topics import embed, similar_pairs

    vectors = embed(ROOTS)
    dense = vectors @ vectors.T
    n = len(ROOTS)
    want = {(i, j) for i in range(n) for j in range(i + 1, n) if dense[i, j] >= 0.4}
    assert want  # related roots exist at this threshold
    for block in (1, 5, 64):
        pairs = similar_pairs(ROOTS, 0.4, neighbours=n, block=block)
        assert set(zip(pairs.rows.tolist(), pairs.cols.tolist(), strict=True)) == want
        assert np.allclose(
            pairs.sims, [dense[i, j] for i, j in zip(pairs.rows, pairs.cols, strict=True)]
        )
    one = similar_pairs(ROOTS, 0.4, neighbours=1, block=4)
    for i, j in zip(one.rows.tolist(), one.cols.tolist(), strict=True):
        closest = {int(np.argsort(-np.where(np.arange(n) == k, -9, dense[k]))[0]) for k in (i, j)}
        assert i in closest or j in closest
    assert set(zip(one.rows.tolist(), one.cols.tolist(), strict=True)) <= want
