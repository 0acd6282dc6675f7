"""The minimum necessary DAG search against the exhaustive oracle on random state graphs."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seekgraph.training.stategraph import exact, mindag, model
from seekgraph.training.stategraph.errors import StateGraphError
from seekgraph.training.stategraph.exact import exact_necessary_actions
from seekgraph.training.stategraph.mindag import cost, necessary_actions
from seekgraph.training.stategraph.model import StateGraph, is_valid


@st.composite
def state_graphs(draw: st.DrawFn, single_producer: bool = False) -> tuple[StateGraph, set[int]]:
    """A random valid state graph (every action relies only on earlier products) + required set."""
    n = draw(st.integers(min_value=2, max_value=11))
    pool = [f"i{k}" for k in range(draw(st.integers(min_value=1, max_value=8)))]
    produces: list[set[str]] = [{"q"}]
    enables: list[set[str]] = [set()]
    seen: list[str] = ["q"]
    for a in range(1, n):
        relies = draw(st.sets(st.sampled_from(seen), max_size=3))
        enables.append(set(relies))
        fresh = [i for i in pool if i not in seen] if single_producer else pool
        made = (
            set(draw(st.sets(st.sampled_from(fresh), max_size=3))) if fresh and a < n - 1 else set()
        )
        produces.append(made)
        seen.extend(sorted(made - set(seen)))
    graph = StateGraph(produces=produces, enables=enables)
    required = draw(st.sets(st.integers(min_value=1, max_value=n - 1), max_size=2))
    return graph, required


@settings(max_examples=60, deadline=None)
@given(state_graphs())
def test_search_is_valid_locally_minimal_and_never_beats_the_oracle(
    case: tuple[StateGraph, set[int]],
) -> None:
    graph, required = case
    found = necessary_actions(graph, required)
    best = exact_necessary_actions(graph, required)
    assert is_valid(graph, found) and is_valid(graph, best)
    assert {0, graph.answer, *required} <= found
    assert cost(graph, found) >= cost(graph, best)
    for a in found - {0, graph.answer, *required}:
        assert not is_valid(graph, found - {a}), f"action {a} was removable"


@settings(max_examples=80, deadline=None)
@given(state_graphs(), st.data())
def test_the_bounded_oracle_finds_the_same_minimum(
    case: tuple[StateGraph, set[int]], data: st.DataObject
) -> None:
    """With the search's answer (or any other set) as a bound, the oracle's cost is the
    unbounded oracle's: an invalid bound is ignored, never returned."""
    graph, required = case
    best = exact_necessary_actions(graph, required)
    found = necessary_actions(graph, required)
    assert cost(graph, exact_necessary_actions(graph, required, known=found)) == cost(graph, best)
    other = frozenset(data.draw(st.sets(st.integers(0, graph.answer))))
    bounded = exact_necessary_actions(graph, required, known=other)
    assert is_valid(graph, bounded) and cost(graph, bounded) == cost(graph, best)
    assert {0, graph.answer, *required} <= bounded


@settings(max_examples=60, deadline=None)
@given(state_graphs(), st.sets(st.integers(0, 10)))
def test_bitwise_validity_equals_is_valid(
    case: tuple[StateGraph, set[int]], chosen: set[int]
) -> None:
    graph, _ = case
    chosen = {a for a in chosen if a < graph.n_actions}
    assert exact._validity(graph)(chosen) == is_valid(graph, chosen)


@settings(max_examples=60, deadline=None)
@given(state_graphs(single_producer=True))
def test_search_equals_the_oracle_when_each_fact_has_one_producer(
    case: tuple[StateGraph, set[int]],
) -> None:
    graph, required = case
    assert cost(graph, necessary_actions(graph, required)) == cost(
        graph, exact_necessary_actions(graph, required)
    )


def test_redundant_search_and_irrelevant_visit_are_pruned() -> None:
    # 1 search finds x; 2 repeats it (redundant); 3 visits y (irrelevant); 4 visits z using x;
    # the answer (5) relies on x and z.
    graph = StateGraph(
        produces=[{"q"}, {"x"}, {"x"}, {"y"}, {"z"}, set()],
        enables=[set(), {"q"}, {"q"}, {"q"}, {"x"}, {"x", "z"}],
    )
    assert sorted(necessary_actions(graph)) == [0, 1, 4, 5]
    assert sorted(exact_necessary_actions(graph)) == [0, 1, 4, 5]
    # Requiring the re-search (say it first produced an answer entity) keeps it and drops 1.
    assert sorted(necessary_actions(graph, required={2})) == [0, 2, 4, 5]


def test_one_action_producing_two_needed_facts_beats_two_actions() -> None:
    graph = StateGraph(
        produces=[{"q"}, {"x"}, {"y"}, {"x", "y"}, set()],
        enables=[set(), {"q"}, {"q"}, {"q"}, {"x", "y"}],
    )
    assert cost(graph, necessary_actions(graph)) == 1


def test_underivable_answer_is_a_clear_error() -> None:
    graph = StateGraph(produces=[{"q"}, {"x"}, set()], enables=[set(), {"q"}, {"nowhere"}])
    with pytest.raises(StateGraphError, match="cannot be derived"):
        necessary_actions(graph)
    with pytest.raises(StateGraphError, match="cannot be derived"):
        exact_necessary_actions(graph)


def test_exact_solver_refuses_graphs_beyond_its_limit() -> None:
    n = 25
    graph = StateGraph(
        produces=[{"q"}] + [{f"i{a}"} for a in range(1, n - 1)] + [set()],
        enables=[set()] + [{"q"}] * (n - 2) + [{f"i{a}" for a in range(1, n - 1)}],
    )
    with pytest.raises(StateGraphError, match="exceed"):
        exact_necessary_actions(graph, max_candidates=10)
    assert cost(graph, necessary_actions(graph)) == n - 2


def test_module_examples_run() -> None:
    for module in (mindag, exact, model):
        result = doctest.testmod(module, extraglobs={"StateGraph": StateGraph})
        assert result.failed == 0 and result.attempted > 0
