"""Rule extractor, vote and LLM-reply parsing: plain data, no server."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seekgraph.common.wire import parse_messages
from seekgraph.training.stategraph import vote as vote_module
from seekgraph.training.stategraph.extract_llm import close_list, fact_key, parse_json_list
from seekgraph.training.stategraph.extract_rules import (
    LexEntry,
    Lexicon,
    extract_rule_graph,
    first_introducers,
    text_mentions,
)
from seekgraph.training.stategraph.rewrite import clean_candidate, turns_to_rewrite
from seekgraph.training.stategraph.vote import vote
from tests.test_clipper_prune import ENTITIES, WIKI, fixture_messages


def lexicon() -> Lexicon:
    return Lexicon([LexEntry("/wiki/" + s, (n,), "entity") for s, n in ENTITIES.items()])


def test_lexicon_matches_names_link_targets_and_numbers() -> None:
    lex = lexicon()
    text = f"Visit {WIKI}Kazuo_Ishiguro; kazuo ishiguro won in 1989, not Japanese."
    assert lex.mentions(text) == {"/wiki/Kazuo_Ishiguro", "number:1989"}


def test_lexicon_matches_names_whatever_their_case_and_accents() -> None:
    """A case-insensitive match of a non-ASCII name can lower-case unlike the stored name
    ("İstanbul" matches "Istanbul" but lowers to "i̇stanbul"); it still finds its entity (on
    OTT-QA this was a KeyError that stopped the prune stage)."""
    names = Lexicon(
        [LexEntry("/wiki/Istanbul", ("Istanbul",)), LexEntry("/wiki/Şişli", ("Şişli",))]
    )
    text = "Born in İstanbul, grew up in ŞIŞLI and ISTANBUL."
    assert names.mentions(text) == {"/wiki/Istanbul", "/wiki/Şişli"}
    assert names.mentions("Istanbuler") == set()


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


def test_an_action_produces_only_what_the_web_returned() -> None:
    """A search typed with the answer's name but returning nothing, and a visit whose goal
    names it on a page that does not: neither produced the name (the echoes of the agent's own
    query and goal are not information); the visit of a page that states it did."""
    from seekgraph.agent.web.responses import join_parts, search_text, visit_text
    from seekgraph.common.wire import Trajectory, assistant_text, tool_response_text

    goal = "Kazuo Ishiguro"
    page = visit_text(f"{WIKI}Kazuo_Ishiguro", goal, "Kazuo Ishiguro was born in Nagasaki.")
    empty = visit_text(f"{WIKI}Japan", goal, "Japan is an island country.")
    steps = [
        (
            ("search", {"query": ["Kazuo Ishiguro Booker"]}),
            search_text("Kazuo Ishiguro Booker", []),
        ),
        (("visit", {"url": [f"{WIKI}Japan"], "goal": goal}), join_parts([empty])),
        (("visit", {"url": [f"{WIKI}Kazuo_Ishiguro"], "goal": goal}), join_parts([page])),
    ]
    trajectory = Trajectory("Who won the 1989 Booker Prize?")
    for call, response in steps:
        trajectory = trajectory.with_turn(
            assistant_text("Let me look.", call=call), tool_response_text(response)
        )
    trajectory = trajectory.with_turn(assistant_text("Found it.", answer="Kazuo Ishiguro"))
    keys = ["/wiki/Kazuo_Ishiguro", "/wiki/Nagasaki", "/wiki/Japan"]
    assert first_introducers(trajectory, lexicon(), keys) == {
        "/wiki/Japan": 2,
        "/wiki/Kazuo_Ishiguro": 3,
        "/wiki/Nagasaki": 3,
    }
    graph = extract_rule_graph(trajectory, lexicon(), "entity")
    assert "/wiki/Kazuo_Ishiguro" not in graph.produces[1] | graph.produces[2]


_PIECES = [
    "Kazuo Ishiguro",
    "kazuo ishiguro",
    f"{WIKI}Kazuo_Ishiguro",
    "Nagasaki",
    "Japan",
    "Booker Prize",
    "1989",
    "3.5",
    "12,000",
    "St. Louis",
    "won the",
    "in",
    ".",
    ",",
    " ",
    "\n",
    "\n\n",
    "\n1. ",
    "\n- ",
    "\n  * ",
]


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(st.sampled_from(_PIECES), max_size=25))
def test_block_by_block_mentions_equal_the_whole_texts(pieces: list[str]) -> None:
    """The prune stage reads an observation's mentions block by block (reusing the
    extraction's lookups); that finds what reading the whole text finds."""
    lex = Lexicon(
        [
            *(LexEntry("/wiki/" + s, (n,), "entity") for s, n in ENTITIES.items()),
            LexEntry("/wiki/St._Louis", ("St. Louis",)),
            LexEntry("value:1989", ("1989",), "value"),
        ]
    )
    text = "".join(pieces)
    assert text_mentions(lex, text) == Lexicon(lex.entries).mentions(text)


def test_block_by_block_mentions_of_the_fixture_trajectory() -> None:
    trajectory = parse_messages(fixture_messages()[0])
    texts = [trajectory.question, trajectory.answer] + [
        t.observation or "" for t in trajectory.turns
    ]
    for text in texts:
        assert text_mentions(lexicon(), text) == lexicon().mentions(text)


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
