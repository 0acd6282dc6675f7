"""Wire format, rule extractor, vote and LLM-reply parsing: plain data, no server."""

from __future__ import annotations

import copy
import doctest

import pytest

from tests.test_clipper_prune import ENTITIES, WIKI, fixture_messages
from training.stategraph import vote as vote_module
from training.stategraph.errors import WireFormatError
from training.stategraph.extract_llm import close_list, fact_key, parse_json_list
from training.stategraph.extract_rules import (
    LexEntry,
    Lexicon,
    extract_rule_graph,
    first_introducers,
)
from training.stategraph.rewrite import clean_candidate, turns_to_rewrite
from training.stategraph.vote import vote
from training.stategraph.wire import (
    count_tokens,
    parse_messages,
    render_messages,
    validate_messages,
)


def lexicon() -> Lexicon:
    return Lexicon([LexEntry("/wiki/" + s, (n,), "entity") for s, n in ENTITIES.items()])


def test_parse_and_render_round_trip_byte_for_byte() -> None:
    messages, _ = fixture_messages()
    trajectory = parse_messages(messages)
    assert [t.tool for t in trajectory.turns] == [
        "search",
        "search",
        "visit",
        "visit",
        "visit",
        None,
    ]
    assert trajectory.rounds == 5 and trajectory.answer == "Kazuo Ishiguro"
    assert render_messages(trajectory) == messages
    kept = render_messages(trajectory.keep([1, 3]))
    assert kept == messages[:4] + messages[6:8] + messages[-1:]


@pytest.mark.parametrize(
    ("index", "content", "error"),
    [
        (2, "<think>x</think>", "expected one <tool_call>"),
        (2, "<think>x</think><tool_call>{not json}</tool_call>", "not JSON"),
        (
            2,
            '<think>x</think><tool_call>{"name": "shell", "arguments": {}}</tool_call>',
            "one of ('search', 'visit')",
        ),
        (
            2,
            '<think>x</think><tool_call>{"name": "search", "arguments": 3}</tool_call>',
            "arguments must be a JSON object",
        ),
        (3, "plain text", "expected a user <tool_response>"),
        (-1, "<think>done</think>", "one <answer>"),
        (2, "<tool_call>{}</tool_call>", "expected one <think>"),
    ],
)
def test_validator_names_each_problem(index: int, content: str, error: str) -> None:
    messages, _ = fixture_messages()
    bad = copy.deepcopy(messages)
    bad[index]["content"] = content
    with pytest.raises(WireFormatError, match=error.replace("(", r"\(").replace(")", r"\)")):
        validate_messages(bad)
    with pytest.raises(WireFormatError, match="at least"):
        validate_messages(messages[:2])
    with pytest.raises(WireFormatError, match="odd length"):
        validate_messages(messages[:-1])


def test_tokens_are_counted_by_one_fixed_rule() -> None:
    assert count_tokens("Kazuo Ishiguro (1954) won.") == 7


def test_lexicon_matches_names_link_targets_and_numbers() -> None:
    lex = lexicon()
    text = f"Visit {WIKI}Kazuo_Ishiguro; kazuo ishiguro won in 1989, not Japanese."
    assert lex.mentions(text) == {"/wiki/Kazuo_Ishiguro", "number:1989"}


def test_rule_graph_entity_granularity_edges() -> None:
    trajectory = parse_messages(fixture_messages()[0])
    graph = extract_rule_graph(trajectory, lexicon(), "entity")
    assert graph.n_actions == 7 and graph.answer == 6
    assert "/wiki/Nagasaki" in graph.produces[3] and "/wiki/Kazuo_Ishiguro" in graph.enables[3]
    assert "pair:/wiki/Kazuo_Ishiguro|/wiki/Nagasaki" in graph.enables[6]
    # every dependency was produced earlier (time respected)
    for a, needs in enumerate(graph.enables):
        produced = set().union(*graph.produces[:a]) if a else set()
        assert needs <= produced
    with pytest.raises(ValueError, match="granularity"):
        extract_rule_graph(trajectory, lexicon(), "page")


def test_first_introducers_are_the_producing_turns() -> None:
    trajectory = parse_messages(fixture_messages(first_search_is_detour=True)[0])
    assert first_introducers(
        trajectory, lexicon(), ["/wiki/Kazuo_Ishiguro", "/wiki/Japan", "/wiki/Photosynthesis"]
    ) == {"/wiki/Kazuo_Ishiguro": 1, "/wiki/Japan": 3}


def test_vote_needs_two_equal_sets() -> None:
    a, b = frozenset({0, 1, 6}), frozenset({0, 2, 6})
    assert vote([a, b, a]).accepted == a and vote([a, b, a]).agreeing == (0, 2)
    assert vote([a, b, frozenset({0, 6})]).reason == "no_majority"
    assert vote([a, None, None]).reason == "extraction_failed"
    assert vote([None, None, None]).accepted is None
    assert doctest.testmod(vote_module).failed == 0


def test_llm_reply_parsing_is_strict() -> None:
    assert parse_json_list('Sure! ["a", "b"] done') == ["a", "b"]
    assert parse_json_list("[1, 2") is None and parse_json_list("no list") is None
    assert fact_key("Kazuo  Ishiguro") == fact_key("kazuo ishiguro")
    # generation stops at the first "]" (excluded, as OpenAI servers do): close_list restores it
    assert parse_json_list(close_list('Facts: ["a", "b"')) == ["a", "b"]
    assert close_list("[1, 2] and [3") == "[1, 2] and [3" and close_list("none") == "none"
    assert parse_json_list(close_list('["x ')) is None  # reply '["x ]y"]' was cut at its first ]


def test_rewrite_targets_only_turns_after_a_gap_and_cleans_candidates() -> None:
    trajectory = parse_messages(fixture_messages()[0])
    assert turns_to_rewrite(trajectory, [1, 3, 6]) == [3, 6]
    assert turns_to_rewrite(trajectory, [1, 2, 3, 4, 5, 6]) == []
    assert clean_candidate("<think> I read it. </think>\n<tool_call>{}") == "I read it."
