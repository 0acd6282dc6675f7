"""The wire format: one shape, one parser with one leniency, rendered back byte for byte."""

from __future__ import annotations

import copy

import pytest

from seekgraph.common.wire import (
    MALFORMED_JSON,
    Trajectory,
    WireFormatError,
    check_complete,
    count_tokens,
    format_score,
    parse_assistant,
    parse_messages,
    system_prompt,
)
from tests.test_clipper_prune import fixture_messages


def test_parse_and_render_round_trip_byte_for_byte() -> None:
    messages, _ = fixture_messages()
    trajectory = parse_messages(messages)
    assert trajectory.date == "2026-01-01"
    assert [t.tool for t in trajectory.turns] == ["search", "search", "visit", "visit", "visit", ""]
    assert trajectory.tool_calls == 5 and trajectory.rounds == 6
    assert trajectory.answer == "Kazuo Ishiguro"
    assert trajectory.messages() == messages
    kept = trajectory.keep([1, 3]).messages()
    assert kept == messages[:4] + messages[6:8] + messages[-1:]
    assert [t.index for t in trajectory.keep([1, 3]).turns] == [1, 3, 6]


def test_one_parser_one_leniency() -> None:
    # a tool call or an answer counts only with both tags; an answer wins over a call
    assert parse_assistant("<think>t</think><answer>x").kind == "invalid"
    assert parse_assistant('<tool_call>{"name": "search"}').kind == "invalid"
    both = '<tool_call>{"name": "search", "arguments": {}}</tool_call><answer>a</answer>'
    assert parse_assistant(both).kind == "answer"
    # the thought: inside <think>, else up to the first tag (a missing </think> ends at a tag)
    assert parse_assistant("plan <answer>a</answer>").thought == "plan"
    assert parse_assistant("<think>plan<answer>a</answer>").thought == "plan"
    # a malformed call comes back with the error observation the agent answers with
    bad = parse_assistant("<think>t</think><tool_call>{not json}</tool_call>")
    assert (bad.kind, bad.error) == ("malformed_call", MALFORMED_JSON)
    shape = parse_assistant('<tool_call>["search"]</tool_call>')
    assert shape.kind == "malformed_call"
    call = parse_assistant(
        '<think>t</think>\n<tool_call>\n{"name": "visit", "arguments": {"url": "u"}}\n</tool_call>'
    )
    assert (call.kind, call.tool, call.arguments) == ("tool_call", "visit", {"url": "u"})


def test_rewriting_a_thought_keeps_the_call_verbatim() -> None:
    messages, _ = fixture_messages()
    turn = parse_messages(messages).turns[0]
    new = turn.with_thought("Shorter.")
    assert new.thought == "Shorter." and new.parsed.call_text == turn.parsed.call_text
    assert new.response == turn.response and new.index == turn.index


@pytest.mark.parametrize(
    ("index", "content", "error"),
    [
        (2, "<think>x</think>", "turn 1: expected a call of search/visit, got invalid"),
        (2, "<think>x</think><tool_call>{not json}</tool_call>", "got malformed_call"),
        (2, '<tool_call>{"name": "shell", "arguments": {}}</tool_call>', "expected a call"),
        (3, "plain text", "message 3: expected a user <tool_response>"),
        (-1, "<think>done</think>", "the last turn must be an answer"),
    ],
)
def test_malformed_trajectories_are_named(index: int, content: str, error: str) -> None:
    messages, _ = fixture_messages()
    bad = copy.deepcopy(messages)
    bad[index]["content"] = content
    with pytest.raises(WireFormatError, match=error):
        check_complete(parse_messages(bad))
    with pytest.raises(WireFormatError, match="a system and a user message"):
        parse_messages(messages[:1])
    with pytest.raises(WireFormatError, match="the last turn must be an answer"):
        check_complete(parse_messages(messages[:-1]))


def test_tokens_are_counted_by_one_fixed_rule() -> None:
    assert count_tokens("Kazuo Ishiguro (1954) won.") == 7
    trajectory = Trajectory("q", date="2026-01-01").with_turn("<answer>a b</answer>")
    assert trajectory.tokens() == count_tokens("<answer>a b</answer>")


def test_format_score_shapes_toward_the_format() -> None:
    assert format_score("<think>x</think>\n<answer>a</answer>") == 1.0
    assert format_score("<answer>a</answer>") == 1.0
    assert format_score('<tool_call>{"name": "search", "arguments": {}}</tool_call>') == 0.5
    assert format_score('<tool_call>{"name": "search"}</tool_call>') == 0.2
    assert format_score("chatter <answer>a</answer>") < 1.0
    assert format_score("nothing") == 0.0


def test_the_system_prompt_names_the_tools_and_the_date() -> None:
    text = system_prompt("2026-01-01")
    assert '"name": "search"' in text and '"name": "visit"' in text
    assert text.endswith("Current date: 2026-01-01")
