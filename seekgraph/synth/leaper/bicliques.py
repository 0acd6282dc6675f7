"""Maximal bicliques of the tree × relation graph: the trees a Union task may merge.

Definition
----------
Let ``G = (T ∪ R, E)`` be bipartite: ``T`` the reasoning trees, ``R`` the canonical relations,
and ``(t, r) ∈ E`` when tree ``t`` has an attribute column mapped to ``r``
(``(:Tree)-[:HAS_RELATION]->(:Relation)`` in the graph). A *biclique* is a pair ``(A, B)``,
``A ⊆ T``, ``B ⊆ R``, with every ``t ∈ A`` adjacent to every ``r ∈ B``. It is *maximal* when no
tree and no relation can be added. Equivalently ``B = N(A)`` (the relations shared by all of
``A``) and ``A = N(B)`` (the trees having all of ``B``): a closed pair (formal concept).
We enumerate the maximal bicliques with ``|A| >= min_trees`` and ``|B| >= min_relations``;
both bounds are monotone under extension, so these are exactly the maximal bicliques of ``G``
that satisfy the bounds. Topic relatedness (roots similar by embedding) is applied before, by
running the enumeration on each topic group of the root-similarity graph
(`seekgraph.synth.leaper.topics.topic_groups`), i.e. on the induced subgraph ``G[C ∪ R]`` of a group ``C``.

Algorithm
---------
Close-by-One (Kuznetsov 1993): order the relations; from the closed pair ``(A, B)`` reached by
adding relation ``y``, for every ``r > y`` not in ``B`` form ``A' = A ∩ N(r)`` and
``B' = N(A')``; recurse when ``|A'| >= min_trees`` and ``B'`` adds no relation smaller than
``r`` (canonicity), so each closed pair is produced once. Extents only shrink along a branch,
which makes the ``min_trees`` pruning sound.

Complexity: ``O(|R| · |T| · |R|)`` work per maximal biclique (polynomial delay); the number of
maximal bicliques can be exponential in the worst case.

Three implementations share this definition: `maximal_bicliques` (pure Python over bitsets,
the reference), `maximal_bicliques_cypher_groups` (the graph computes each step; one query per
level of the search for every topic group at once,
``seekgraph/cypher/leaper/expand_biclique_candidates.cypher``) and `maximal_bicliques_networkx` (maximal
cliques of the standard reduction: both sides made cliques). The tests check all three against
brute force on random bipartite graphs.

Example
-------
>>> adj = {"nobel": {"year", "nationality", "language"}, "booker": {"year", "nationality"},
...        "pulitzer": {"year"}}
>>> maximal_bicliques(adj, min_trees=2, min_relations=1)
[Biclique(trees=('booker', 'nobel'), relations=('nationality', 'year')), \
Biclique(trees=('booker', 'nobel', 'pulitzer'), relations=('year',))]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from itertools import combinations
from typing import Any, NamedTuple

import neo4j

from seekgraph.graphdb import cypher
from seekgraph.graphdb.ids import stable_id
from seekgraph.synth.errors import SynthError


class BicliqueError(SynthError):
    """Invalid enumeration bounds, or the search exceeded its limit."""


@dataclass(frozen=True, order=True)
class Biclique:
    """A maximal biclique: sorted tree ids and the sorted relations they all share."""

    trees: tuple[str, ...]
    relations: tuple[str, ...]

    @property
    def biclique_id(self) -> str:
        return stable_id("biclique", list(self.trees), list(self.relations))


def _check(min_trees: int, min_relations: int) -> None:
    if min_trees < 1 or min_relations < 1:
        raise BicliqueError("min_trees and min_relations must be at least 1")


def maximal_bicliques(
    adjacency: Mapping[str, set[str] | frozenset[str]],
    *,
    min_trees: int = 2,
    min_relations: int = 1,
    limit: int | None = None,
) -> list[Biclique]:
    """Pure-Python Close-by-One over bitsets (the reference); returns sorted bicliques."""
    _check(min_trees, min_relations)
    trees = sorted(adjacency)
    relations = sorted({r for rels in adjacency.values() for r in rels})
    index = {t: i for i, t in enumerate(trees)}
    cover = [0] * len(relations)  # relation -> bitset of trees having it
    for j, r in enumerate(relations):
        for t in trees:
            if r in adjacency[t]:
                cover[j] |= 1 << index[t]

    def closure(extent: int) -> list[int]:
        return [j for j, mask in enumerate(cover) if mask & extent == extent]

    def members(extent: int) -> tuple[str, ...]:
        return tuple(t for i, t in enumerate(trees) if extent >> i & 1)

    out: list[Biclique] = []
    full = (1 << len(trees)) - 1
    if full.bit_count() < min_trees:
        return out
    stack = [(full, closure(full), -1)]
    while stack:
        extent, intent, last = stack.pop()
        if len(intent) >= min_relations:
            out.append(Biclique(members(extent), tuple(relations[j] for j in intent)))
            if limit is not None and len(out) > limit:
                raise BicliqueError(f"more than {limit} maximal bicliques")
        have = set(intent)
        for j in range(last + 1, len(relations)):
            if j in have:
                continue
            child = extent & cover[j]
            if child.bit_count() < min_trees:
                continue
            child_intent = closure(child)
            if any(s < j and s not in have for s in child_intent):
                continue
            stack.append((child, child_intent, j))
    return sorted(out)


def maximal_bicliques_cypher(
    driver: neo4j.Driver,
    tree_ids: list[str],
    *,
    database: str | None = None,
    min_trees: int = 2,
    min_relations: int = 1,
    limit: int | None = None,
) -> list[Biclique]:
    """The maximal bicliques of one set of trees, enumerated by the graph
    (`maximal_bicliques_cypher_groups` with one group); raises `BicliqueError` past `limit`."""
    found = maximal_bicliques_cypher_groups(
        driver,
        [tree_ids],
        database=database,
        min_trees=min_trees,
        min_relations=min_relations,
        limit=limit,
    )[0]
    if found is None:
        raise BicliqueError(f"more than {limit} maximal bicliques")
    return found


class _Pair(NamedTuple):
    """A closed pair of the Cypher-driven search: trees of group `group`, the relations they all
    share, and the relation whose addition reached it ("" at the group's root)."""

    group: int
    extent: list[str]
    intent: list[str]
    after: str


def maximal_bicliques_cypher_groups(
    driver: neo4j.Driver,
    groups: Sequence[Sequence[str]],
    *,
    database: str | None = None,
    min_trees: int = 2,
    min_relations: int = 1,
    limit: int | None = None,
    chunk: int = 2000,
    readers: int = 2,
) -> list[list[Biclique] | None]:
    """Close-by-One of many tree sets at once, level by level, where the graph computes every
    step (child extents, closures, canonicity).

    The search trees of all `groups` are walked breadth first: read queries expand every
    closed pair of a level (at most `chunk` pairs per query, split over `readers` concurrent
    queries so that the server works on as many cores), so the number of round trips grows
    with the depth of the search (the most relations a closed pair adds), not the number of
    pairs. Python keeps only the frontier; the tree × relation graph is never loaded into
    memory. Returns each group's sorted bicliques, or None for a group with more than `limit`.
    """
    _check(min_trees, min_relations)
    extents = [sorted(set(g)) for g in groups]
    out: list[list[Biclique] | None] = [[] for _ in extents]
    readers = max(1, readers)
    with ThreadPoolExecutor(readers, thread_name_prefix="biclique-reader") as pool:
        read = partial(_read_batches, pool, driver, database, chunk=chunk, readers=readers)
        searched = [i for i, e in enumerate(extents) if len(e) >= min_trees]
        frontier = [
            _Pair(batch[row["i"]], extents[batch[row["i"]]], sorted(row["intent"]), "")
            for batch, rows in read(
                "leaper/find_common_relations",
                searched,
                lambda batch: {"extents": [extents[i] for i in batch]},
            )
            for row in rows
        ]
        while frontier:
            parents = []
            for pair in frontier:
                found = out[pair.group]
                if found is None:
                    continue  # over its limit: searched no further
                if len(pair.intent) >= min_relations:
                    found.append(Biclique(tuple(pair.extent), tuple(pair.intent)))
                    if limit is not None and len(found) > limit:
                        out[pair.group] = None
                        continue
                if len(pair.extent) > min_trees:
                    # a child's extent is strictly smaller (the same trees close to this
                    # intent), so a pair of min_trees trees or fewer has no children
                    parents.append(pair)
            frontier = [
                _Pair(batch[i].group, sorted(extent), sorted(intent), relation)
                for batch, (record,) in read(
                    "leaper/expand_biclique_candidates",
                    parents,
                    lambda batch: {
                        "min_trees": min_trees,
                        "nodes": [
                            {"i": i, "extent": p.extent, "intent": p.intent, "after": p.after}
                            for i, p in enumerate(batch)
                        ],
                    },
                )
                for i, relation, extent, intent in record["children"]
            ]
    return [None if found is None else sorted(found) for found in out]


def _read_batches(
    pool: ThreadPoolExecutor,
    driver: neo4j.Driver,
    database: str | None,
    name: str,
    items: list[Any],
    params: Callable[[list[Any]], dict[str, Any]],
    *,
    chunk: int,
    readers: int,
) -> Iterator[tuple[list[Any], list[dict[str, Any]]]]:
    """Query `name` over `items` split into at most `chunk` per batch and at least `readers`
    batches, run concurrently on `pool`; yields (batch, its records) in input order."""
    size = max(1, min(chunk, -(-len(items) // readers)))
    batches = list(cypher.batched(items, size))
    pages = pool.map(
        lambda batch: cypher.read(driver, name, database=database, **params(batch)), batches
    )
    return zip(batches, pages, strict=True)


def maximal_bicliques_networkx(
    adjacency: Mapping[str, set[str] | frozenset[str]],
    *,
    min_trees: int = 2,
    min_relations: int = 1,
) -> list[Biclique]:
    """Maximal cliques of the standard reduction (each side made a clique), kept when they
    touch both sides: those are exactly the maximal bicliques with both sides non-empty."""
    import networkx as nx

    _check(min_trees, min_relations)
    graph = nx.Graph()
    trees = [("t", t) for t in adjacency]
    relations = sorted({("r", r) for rels in adjacency.values() for r in rels})
    graph.add_nodes_from(trees)
    graph.add_nodes_from(relations)
    graph.add_edges_from(combinations(trees, 2))
    graph.add_edges_from(combinations(relations, 2))
    graph.add_edges_from((("t", t), ("r", r)) for t, rels in adjacency.items() for r in rels)
    out = []
    for clique in nx.find_cliques(graph):
        a = tuple(sorted(name for side, name in clique if side == "t"))
        b = tuple(sorted(name for side, name in clique if side == "r"))
        if len(a) >= min_trees and len(b) >= min_relations:
            out.append(Biclique(a, b))
    return sorted(out)


def brute_force_bicliques(
    adjacency: Mapping[str, set[str] | frozenset[str]],
    *,
    min_trees: int = 2,
    min_relations: int = 1,
) -> list[Biclique]:
    """Every tree subset, kept when closed: the oracle for tests (exponential, tiny inputs)."""
    _check(min_trees, min_relations)
    trees = sorted(adjacency)
    out = set()
    for size in range(min_trees, len(trees) + 1):
        for subset in combinations(trees, size):
            shared = set.intersection(*(set(adjacency[t]) for t in subset))
            if len(shared) < min_relations:
                continue
            extent = tuple(t for t in trees if shared <= set(adjacency[t]))
            if extent == subset:
                out.add(Biclique(subset, tuple(sorted(shared))))
    return sorted(out)
