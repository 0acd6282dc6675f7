"""The Tongyi wire format of a trajectory, parsed into turns and rendered back unchanged.

A trajectory is a list of chat messages::

    system, user (the question),
    assistant "<think>T</think>\\n<tool_call>{"name": ..., "arguments": {...}}</tool_call>",
    user "<tool_response>OBS</tool_response>", ...,
    assistant "<think>T</think>\\n<answer>A</answer>"

`parse_messages` turns it into a `Trajectory` (turn ``t`` = the t-th assistant message, 1-based;
turn 0 is the question), `render_messages` writes it back, keeping each tool call's raw text so a
pruned trajectory re-attaches tool calls byte for byte, and `validate_messages` says exactly what
is wrong with a message list. Tokens are counted with one fixed rule (`count_tokens`) so that
before/after numbers compare.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from training.stategraph.errors import WireFormatError

TOOLS = ("search", "visit")
_THINK = re.compile(r"<think>(.*?)</think>", re.S)
_TOOL_CALL = re.compile(r"<tool_call>(.*?)</tool_call>", re.S)
_ANSWER = re.compile(r"<answer>(.*?)</answer>", re.S)
_RESPONSE = re.compile(r"^\s*<tool_response>(.*)</tool_response>\s*$", re.S)
_TOKEN = re.compile(r"\w+|[^\w\s]")


@dataclass(frozen=True)
class Turn:
    """One assistant message and the observation that answered it (None for the final answer)."""

    index: int
    thought: str
    tool: str | None = None
    arguments: dict[str, Any] | None = None
    tool_call_text: str | None = None  # the raw text between <tool_call> tags, kept verbatim
    observation: str | None = None
    answer: str | None = None
    raw: str | None = None  # the original assistant message, re-used verbatim while unchanged
    response_raw: str | None = None  # the original tool-response message

    @property
    def is_answer(self) -> bool:
        return self.answer is not None

    def action_text(self) -> str:
        """What the agent wrote in this turn (thought and arguments, or the answer)."""
        parts = [self.thought]
        if self.arguments is not None:
            parts.append(json.dumps(self.arguments, ensure_ascii=False))
        if self.answer is not None:
            parts.append(self.answer)
        return "\n".join(parts)


@dataclass(frozen=True)
class Trajectory:
    """A parsed trajectory: the question and its turns, the last of which gives the answer."""

    system: str
    question: str
    turns: tuple[Turn, ...]

    @property
    def rounds(self) -> int:
        """Tool-call rounds (every turn but the final answer)."""
        return sum(1 for t in self.turns if t.tool is not None)

    @property
    def answer(self) -> str:
        return self.turns[-1].answer or ""

    def keep(self, indexes: Sequence[int]) -> Trajectory:
        """The trajectory restricted to the given turn indexes (the answer turn is always kept)."""
        wanted = set(indexes) | {self.turns[-1].index}
        kept = [t for t in self.turns if t.index in wanted]
        return replace(self, turns=tuple(kept))


def _fail(where: str, why: str) -> WireFormatError:
    return WireFormatError(f"{where}: {why}")


def parse_assistant(content: str, index: int, *, final: bool) -> Turn:
    """Parse one assistant message into a turn (without its observation)."""
    where = f"assistant turn {index}"
    thinks = _THINK.findall(content)
    if len(thinks) != 1:
        raise _fail(where, f"expected one <think>…</think>, found {len(thinks)}")
    thought = thinks[0].strip()
    calls = _TOOL_CALL.findall(content)
    answers = _ANSWER.findall(content)
    if final:
        if calls or len(answers) != 1:
            raise _fail(where, "the last assistant message must hold one <answer> and no tool call")
        return Turn(index=index, thought=thought, answer=answers[0].strip(), raw=content)
    if answers or len(calls) != 1:
        raise _fail(where, f"expected one <tool_call> and no <answer>, found {len(calls)} calls")
    raw = calls[0]
    try:
        call = json.loads(raw)
    except json.JSONDecodeError as e:
        raise _fail(where, f"tool call is not JSON ({e.msg})") from e
    if not isinstance(call, dict) or call.get("name") not in TOOLS:
        raise _fail(where, f"tool call must name one of {TOOLS}")
    arguments = call.get("arguments")
    if not isinstance(arguments, dict):
        raise _fail(where, "tool call arguments must be a JSON object")
    return Turn(
        index=index,
        thought=thought,
        tool=str(call["name"]),
        arguments=arguments,
        tool_call_text=raw,
        raw=content,
    )


def parse_messages(messages: Sequence[dict[str, Any]]) -> Trajectory:
    """Parse a Tongyi message list; raises `WireFormatError` naming the first problem."""
    if len(messages) < 3:
        raise _fail("trajectory", f"needs at least system, user and assistant; got {len(messages)}")
    roles = [m.get("role") for m in messages]
    if roles[0] != "system" or roles[1] != "user":
        raise _fail("trajectory", "must start with a system and a user message")
    if len(messages) % 2 == 0:
        raise _fail("trajectory", "must end with an assistant message (odd length)")
    turns: list[Turn] = []
    body = messages[2:]
    for k in range(0, len(body), 2):
        index = k // 2 + 1
        msg = body[k]
        if msg.get("role") != "assistant":
            raise _fail(f"message {k + 2}", "expected an assistant message")
        final = k == len(body) - 1
        turn = parse_assistant(str(msg.get("content", "")), index, final=final)
        if not final:
            reply = body[k + 1]
            match = _RESPONSE.match(str(reply.get("content", "")))
            if reply.get("role") != "user" or match is None:
                raise _fail(f"message {k + 3}", "expected a user <tool_response>…</tool_response>")
            turn = replace(
                turn, observation=match.group(1).strip(), response_raw=str(reply["content"])
            )
        turns.append(turn)
    return Trajectory(
        system=str(messages[0].get("content", "")),
        question=str(messages[1].get("content", "")),
        turns=tuple(turns),
    )


def render_turn(turn: Turn) -> list[dict[str, str]]:
    """The message(s) of one turn: the original text while unchanged (`raw`), else rebuilt with
    the tool call re-attached from its raw text."""
    if turn.answer is not None:
        content = turn.raw or f"<think>{turn.thought}</think>\n<answer>{turn.answer}</answer>"
        return [{"role": "assistant", "content": content}]
    call = turn.tool_call_text
    if call is None:
        call = json.dumps({"name": turn.tool, "arguments": turn.arguments}, ensure_ascii=False)
    content = turn.raw or f"<think>{turn.thought}</think>\n<tool_call>{call}</tool_call>"
    return [
        {"role": "assistant", "content": content},
        {
            "role": "user",
            "content": turn.response_raw
            or f"<tool_response>\n{turn.observation or ''}\n</tool_response>",
        },
    ]


def render_messages(trajectory: Trajectory) -> list[dict[str, str]]:
    """The message list of a trajectory, in the wire format `parse_messages` reads."""
    messages = [
        {"role": "system", "content": trajectory.system},
        {"role": "user", "content": trajectory.question},
    ]
    for turn in trajectory.turns:
        messages.extend(render_turn(turn))
    return messages


def validate_messages(messages: Sequence[dict[str, Any]]) -> Trajectory:
    """Check a message list is a complete trajectory (ends in an answer); returns it parsed."""
    trajectory = parse_messages(messages)
    for m in messages:
        if set(m) - {"role", "content"} or not isinstance(m.get("content"), str):
            raise _fail("trajectory", "every message must be {role, content} with string content")
    if not trajectory.turns[-1].is_answer:
        raise _fail("trajectory", "does not end in an <answer>")
    return trajectory


def count_tokens(text: str) -> int:
    """Word and punctuation pieces (``\\w+|[^\\w\\s]``): one fixed rule for before/after counts."""
    return len(_TOKEN.findall(text))


def trajectory_tokens(messages: Sequence[dict[str, Any]]) -> int:
    """Tokens of every assistant and tool-response message (system and question excluded)."""
    return sum(count_tokens(str(m.get("content", ""))) for m in messages[2:])
