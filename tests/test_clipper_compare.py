"""The in-memory judgement behind `bench_prune --llm`: same answers as the prune stage."""

from __future__ import annotations

import doctest

from seekgraph.common.wire import parse_messages
from seekgraph.training.stategraph.extract_rules import extract_rule_graphs
from seekgraph.training.stategraph.extraction import answer_entities
from seekgraph.training.stategraph.model import StateGraph
from tests.scaffolding import prune_compare as compare
from tests.scaffolding.prune_compare import ancestors, jaccard, judge
from tests.test_clipper_prune import fixture_messages
from tests.test_clipper_wire import lexicon


def test_doctests() -> None:
    assert doctest.testmod(compare).failed == 0


def test_rule_judgement_matches_the_stage_on_the_fixture() -> None:
    messages, detours = fixture_messages()
    trajectory, lex = parse_messages(messages), lexicon()
    keys, required = answer_entities(trajectory, lex)
    result = judge(trajectory, lex, extract_rule_graphs(trajectory, lex), required, keys)
    # the stage on the real server gives the same (test_clipper_prune: removed [2, 4, 5])
    assert result.reason == "accepted" and result.sets == [frozenset({0, 1, 3, 6})] * 3
    assert result.removed == [2, 4, 5] == sorted(d["step"] + 1 for d in detours)
    assert result.answer_kept
    assert all(s.calls == 0 and s.answer_needs > 0 for s in result.stats)


def test_llm_like_graphs_vote_and_report_their_size() -> None:
    trajectory = parse_messages(fixture_messages()[0])
    lex = lexicon()
    keys, required = answer_entities(trajectory, lex)
    assert required == {1}
    n = len(trajectory.turns) + 1

    def graph(run: int, answer_needs: set[str], failures: int) -> StateGraph:
        produces: list[set[str]] = [set() for _ in range(n)]
        enables: list[set[str]] = [set() for _ in range(n)]
        produces[1], produces[3] = {"f:a"}, {"f:b"}
        enables[-1] = answer_needs
        notes = {"calls": 11, "parse_failures": failures}
        return StateGraph(produces, enables, extractor="llm", run=run, notes=notes)

    # the answer relies on nothing in two runs: only the required producer stays
    sparse = judge(
        trajectory,
        lex,
        [graph(0, set(), 10), graph(1, set(), 9), graph(2, {"f:b"}, 2)],
        required,
        keys,
    )
    assert sparse.sets == [frozenset({0, 1, 6}), frozenset({0, 1, 6}), frozenset({0, 1, 3, 6})]
    assert sparse.accepted == frozenset({0, 1, 6}) and sparse.removed == [2, 3, 4, 5]
    assert sparse.answer_kept  # the required first producer of the answer entity is kept
    assert [(s.infos, s.produces, s.answer_needs, s.parse_failures) for s in sparse.stats] == [
        (2, 2, 0, 10),
        (2, 2, 0, 9),
        (2, 2, 1, 2),
    ]
    split = judge(
        trajectory,
        lex,
        [graph(0, set(), 0), graph(1, {"f:b"}, 0), graph(2, {"f:a", "f:b", "f:c"}, 0)],
        required,
        keys,
    )
    # run 2 relies on a fact nobody produced: its search fails, the other two disagree
    assert split.sets[2] is None and split.reason == "no_majority"
    assert split.accepted is None and split.removed == []
    # no reply of a run parsed: a failed construction, not an empty graph that "agrees"
    silent = judge(
        trajectory,
        lex,
        [graph(0, set(), 11), graph(1, set(), 11), graph(2, {"f:b"}, 2)],
        required,
        keys,
    )
    assert silent.sets == [None, None, frozenset({0, 1, 3, 6})]
    assert silent.reason == "extraction_failed" and silent.accepted is None


def test_ancestors_follow_enables_then_producers() -> None:
    g = StateGraph(
        produces=[{"q"}, {"x"}, {"y"}, {"z"}, set()],
        enables=[set(), {"q"}, {"x"}, {"q"}, {"y"}],
    )
    assert ancestors(g, {4}) == {0, 1, 2, 4}
    assert ancestors(g, {3}) == {0, 3}
    assert jaccard(frozenset(), frozenset()) == 1.0
