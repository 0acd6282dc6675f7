"""Maximal-biclique enumeration: the Cypher-driven search, the pure-Python reference and the
networkx reduction all return exactly what brute force finds on random bipartite graphs."""

from __future__ import annotations

import itertools

import neo4j
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from seekgraph.synth.leaper.bicliques import (
    Biclique,
    BicliqueError,
    brute_force_bicliques,
    maximal_bicliques,
    maximal_bicliques_cypher,
    maximal_bicliques_cypher_groups,
    maximal_bicliques_networkx,
)
from tests.scaffolding.source_tables import write_tree_relations

RELATIONS = [f"r{j}" for j in range(6)]


@st.composite
def bipartite(draw: st.DrawFn) -> dict[str, set[str]]:
    n = draw(st.integers(min_value=0, max_value=7))
    return {f"t{i}": set(draw(st.sets(st.sampled_from(RELATIONS), max_size=6))) for i in range(n)}


def test_small_example_exact() -> None:
    adj = {
        "nobel": {"year", "nationality", "language"},
        "booker": {"year", "nationality"},
        "pulitzer": {"year"},
        "capitals": {"capital"},
    }
    expected = [
        Biclique(("booker", "nobel"), ("nationality", "year")),
        Biclique(("booker", "nobel", "pulitzer"), ("year",)),
    ]
    assert maximal_bicliques(adj, min_trees=2, min_relations=1) == expected
    assert maximal_bicliques(adj, min_trees=2, min_relations=2) == expected[:1]
    assert maximal_bicliques(adj, min_trees=3, min_relations=1) == expected[1:]
    assert maximal_bicliques_networkx(adj, min_trees=2, min_relations=1) == expected


def test_bounds_and_limit_are_checked() -> None:
    with pytest.raises(BicliqueError):
        maximal_bicliques({"a": {"x"}}, min_relations=0)
    adj = {f"t{i}": {f"r{j}" for j in range(5) if j != i} for i in range(5)}
    with pytest.raises(BicliqueError, match="more than 3"):
        maximal_bicliques(adj, min_trees=2, min_relations=1, limit=3)


@settings(max_examples=60, deadline=None)
@given(adj=bipartite(), min_trees=st.integers(2, 3), min_relations=st.integers(1, 3))
def test_reference_and_networkx_match_brute_force(
    adj: dict[str, set[str]], min_trees: int, min_relations: int
) -> None:
    expected = brute_force_bicliques(adj, min_trees=min_trees, min_relations=min_relations)
    assert maximal_bicliques(adj, min_trees=min_trees, min_relations=min_relations) == expected
    assert (
        maximal_bicliques_networkx(adj, min_trees=min_trees, min_relations=min_relations)
        == expected
    )
    for b in expected:  # each result is a biclique and maximal
        assert all(set(b.relations) <= adj[t] for t in b.trees)
        assert {t for t in adj if set(b.relations) <= adj[t]} == set(b.trees)


_counter = itertools.count()


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(adj=bipartite(), min_trees=st.integers(2, 3), min_relations=st.integers(1, 2))
def test_cypher_enumeration_matches_brute_force(
    clean_db: neo4j.Driver,
    database: str | None,
    adj: dict[str, set[str]],
    min_trees: int,
    min_relations: int,
) -> None:
    # each example writes its own trees (fresh prefix) and enumerates only those
    prefix = f"x{next(_counter)}:"
    graph = {prefix + t: {prefix + r for r in rels} for t, rels in adj.items()}
    write_tree_relations(clean_db, graph, database)
    got = maximal_bicliques_cypher(
        clean_db, list(graph), database=database, min_trees=min_trees, min_relations=min_relations
    )
    assert got == brute_force_bicliques(graph, min_trees=min_trees, min_relations=min_relations)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    adjs=st.lists(bipartite(), min_size=1, max_size=4),
    min_trees=st.integers(2, 3),
    min_relations=st.integers(1, 2),
    limit=st.one_of(st.none(), st.integers(0, 6)),
    readers=st.integers(1, 3),
)
def test_cypher_groups_enumerated_together_match_brute_force_each(
    clean_db: neo4j.Driver,
    database: str | None,
    adjs: list[dict[str, set[str]]],
    min_trees: int,
    min_relations: int,
    limit: int | None,
    readers: int,
) -> None:
    """Several groups searched level by level in shared queries (two closed pairs a query, so
    levels span several queries, run by up to three concurrent readers) give each group exactly
    its own bicliques; a group with more than `limit` is None and the others are unaffected.
    Groups share relation names."""
    prefix = f"g{next(_counter)}:"
    graphs = [
        {f"{prefix}{k}:{t}": {prefix + r for r in rels} for t, rels in adj.items()}
        for k, adj in enumerate(adjs)
    ]
    write_tree_relations(clean_db, {t: r for g in graphs for t, r in g.items()}, database)
    got = maximal_bicliques_cypher_groups(
        clean_db,
        [list(g) for g in graphs],
        database=database,
        min_trees=min_trees,
        min_relations=min_relations,
        limit=limit,
        chunk=2,
        readers=readers,
    )
    for graph, found in zip(graphs, got, strict=True):
        expected = brute_force_bicliques(graph, min_trees=min_trees, min_relations=min_relations)
        if limit is not None and len(expected) > limit:
            assert found is None
        else:
            assert found == expected
