"""The answer's ancestors found by Cypher over the stored graph and in memory on the graph as
built are the same (hypothesis against the real server), so both prune modes decide alike."""

from __future__ import annotations

from dataclasses import replace

import neo4j
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from seekgraph.common.wire import Trajectory, Turn
from seekgraph.training.stategraph import store
from seekgraph.training.stategraph.model import StateGraph, answer_ancestors
from seekgraph.training.stategraph.prune import prune_rollouts
from tests.test_clipper_prune import NO_REWRITE, load_fixture


@st.composite
def graphs(draw: st.DrawFn) -> tuple[StateGraph, set[int]]:
    n = draw(st.integers(min_value=2, max_value=7))
    infos = [f"i{k}" for k in range(draw(st.integers(min_value=1, max_value=6)))]
    produces = [set(draw(st.lists(st.sampled_from(infos), max_size=3))) for _ in range(n)]
    enables = [set(draw(st.lists(st.sampled_from(infos), max_size=3))) for _ in range(n)]
    enables[0] = set()
    roots = set(draw(st.lists(st.integers(min_value=1, max_value=n - 1), max_size=2)))
    return StateGraph(produces=produces, enables=enables), roots


def _trajectory(n_actions: int) -> Trajectory:
    calls = tuple(
        Turn(
            k,
            f'<think>t{k}</think>\n<tool_call>\n{{"name": "search", "arguments": '
            f'{{"query": ["q{k}"]}}}}\n</tool_call>',
            "<tool_response>\nx\n</tool_response>",
        )
        for k in range(1, n_actions - 1)
    )
    answer = Turn(n_actions - 1, "<think>done</think>\n<answer>a</answer>")
    return Trajectory("question?", (*calls, answer), "2026-01-01")


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(case=graphs())
def test_memory_ancestors_equal_the_cypher_query(
    case: tuple[StateGraph, set[int]], clean_db: neo4j.Driver
) -> None:
    graph, roots = case
    clean_db.execute_query("MERGE (:Rollout {rollout_id: 'r/hypothesis'})")
    rows = store.GraphRows()
    gid = rows.add("r/hypothesis", _trajectory(graph.n_actions), graph)
    store.write_graphs(clean_db, None, rows)
    by_query = store.find_ancestors(clean_db, None, {gid: roots})[gid]
    assert by_query == answer_ancestors(graph, roots)


def test_both_search_modes_prune_the_same_way(clean_db: neo4j.Driver) -> None:
    load_fixture(clean_db)
    by_query = prune_rollouts(clean_db, None, NO_REWRITE).outcomes
    in_memory = prune_rollouts(
        clean_db, None, replace(NO_REWRITE, graph_search="memory", redo=True)
    ).outcomes
    assert [(o.status, o.kept, o.necessary_sets) for o in in_memory] == [
        (o.status, o.kept, o.necessary_sets) for o in by_query
    ]
    assert by_query and by_query[0].status == "pruned"
