"""The Tongyi-DeepResearch wire format: the one shape of a trajectory, its parser and renderer.

A trajectory is a chat::

    system     the system prompt (`system_prompt`: the tools and the current date)
    user       the question
    assistant  "<think>T</think>\\n<tool_call>\\n{"name": ..., "arguments": {...}}\\n</tool_call>"
    user       "<tool_response>\\nOBSERVATION\\n</tool_response>"
    ...
    assistant  "<think>T</think>\\n<answer>A</answer>"

A `Trajectory` holds the question, the date and the `Turn`s; a turn is one assistant message
(`content`, verbatim) and the tool response that answered it (`response`, verbatim; None for an
answer). Everything else (thought, tool, arguments, answer, observation) is read from those two
texts by `parse_assistant` and `observation_of`, the ONE parser, with one leniency, the same as
Tongyi's own agent:

- a tool call or an answer counts only with both its opening and closing tag;
- an answer wins over a tool call in the same message;
- the thought is the text inside ``<think>…</think>`` (a missing ``</think>`` ends the thought
  at the first tag), else the text before the first tag;
- a tool call whose body is not a JSON object with a string ``name`` is a *malformed call*: the
  agent answers it with an error observation, as Tongyi's does;
- a message with neither a call nor an answer is *invalid* (a format error ends the rollout).

Tokens are counted by one rule (`count_tokens`: words and punctuation marks), so every number
a stage, a picture or a report shows about a trajectory's length agrees.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Literal

from seekgraph.graphdb.errors import SeekgraphError

Message = dict[str, str]  # {"role": "system" | "user" | "assistant", "content": "..."}
TurnKind = Literal["tool_call", "answer", "malformed_call", "invalid"]

TOOL_SPECS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "search",
            "description": "Web search. Returns the top results (title, url, snippet) per query.",
            "parameters": {
                "type": "object",
                "properties": {
                    "query": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": "One or more search queries.",
                    },
                    "filter_year": {
                        "type": "integer",
                        "description": "Only pages about this year.",
                    },
                },
                "required": ["query"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "visit",
            "description": "Visit web pages and return the evidence relevant to the goal.",
            "parameters": {
                "type": "object",
                "properties": {
                    "url": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": "The URL(s) to visit.",
                    },
                    "goal": {"type": "string", "description": "What to look for on the page."},
                },
                "required": ["url", "goal"],
            },
        },
    },
]
TOOL_NAMES = ("search", "visit")
STOP = ["\n<tool_response>", "<tool_response>"]  # generation stops before a tool response

SYSTEM_PROMPT = """You are a deep research assistant. Your core function is to conduct thorough, \
multi-source investigations into any topic. You must handle both broad, open-domain inquiries \
and queries within specialized academic fields. For every request, synthesize information from \
credible, diverse sources to deliver a comprehensive, accurate, and objective response. When \
you have gathered sufficient information and are ready to provide the definitive response, you \
must enclose the entire final answer within <answer></answer> tags. For a list answer, put one \
item per line.

# Tools

You may call one or more functions to assist with the user query.

You are provided with function signatures within <tools></tools> XML tags:
<tools>
{tools}
</tools>

For each function call, return a json object with function name and arguments within \
<tool_call></tool_call> XML tags:
<tool_call>
{{"name": <function-name>, "arguments": <args-json-object>}}
</tool_call>

Current date: {date}"""

MALFORMED_JSON = (
    'Error: Tool call is not a valid JSON. Tool call must contain a valid "name" and '
    '"arguments" field.'
)
MALFORMED_SHAPE = 'Error: Tool call must be a JSON object with a "name" and an "arguments" field.'

_THINK = re.compile(r"<think>(.*?)(?:</think>|(?=<tool_call>|<answer>)|$)", re.S)
_ANSWER = re.compile(r"<answer>(.*?)</answer>", re.S)
_TOOL_CALL = re.compile(r"<tool_call>(.*?)</tool_call>", re.S)
_RESPONSE = re.compile(r"^\s*<tool_response>\s?(.*?)\s?</tool_response>\s*$", re.S)
_TOKEN = re.compile(r"\w+|[^\w\s]")
WIRE_TAGS = ("<think>", "</think>", "<tool_call>", "</tool_call>", "<answer>", "</answer>")


class WireFormatError(SeekgraphError):
    """A message list is not a trajectory in the wire format (the message says where and why)."""


def today() -> str:
    return dt.date.today().isoformat()


def system_prompt(date: str | None = None) -> str:
    """THE system prompt: the tool signatures and the current date."""
    tools = "\n".join(json.dumps(spec["function"], ensure_ascii=False) for spec in TOOL_SPECS)
    return SYSTEM_PROMPT.format(tools=tools, date=date or today())


def tool_call_text(name: str, arguments: Any) -> str:
    payload = json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False)
    return f"<tool_call>\n{payload}\n</tool_call>"


def tool_response_text(observation: str) -> str:
    return f"<tool_response>\n{observation}\n</tool_response>"


def assistant_text(thought: str, *, call: tuple[str, Any] | None = None, answer: str = "") -> str:
    """An assistant message: the thought, then one tool call or the answer."""
    head = f"<think>{thought}</think>\n"
    if call is not None:
        return head + tool_call_text(*call)
    return head + f"<answer>{answer}</answer>"


def cut_at_stop(text: str, stop: Sequence[str] | None = STOP) -> str:
    """`text` up to the earliest stop string (excluded), as OpenAI-compatible servers do."""
    cuts = [i for i in (text.find(s) for s in (stop or ()) if s) if i >= 0]
    return text[: min(cuts)] if cuts else text


@dataclass(frozen=True)
class Parsed:
    """What one assistant message says (see the module docstring for the rules)."""

    kind: TurnKind
    thought: str
    tool: str = ""
    arguments: Any = None
    answer: str = ""
    call_text: str = ""  # the raw text between the tool-call tags
    error: str = ""  # for a malformed call: the observation the agent answers with


def parse_assistant(text: str) -> Parsed:
    """Parse one assistant message; never raises (a bad message is `invalid`)."""
    think = _THINK.search(text)
    if think:
        thought = think.group(1).strip()
    else:
        thought = re.split(r"<tool_call>|<answer>", text, maxsplit=1)[0].strip()
    answer = _ANSWER.search(text)
    if answer:
        return Parsed("answer", thought, answer=answer.group(1).strip())
    call = _TOOL_CALL.search(text)
    if not call:
        return Parsed("invalid", thought)
    body = call.group(1)
    try:
        payload = json.loads(body.strip())
    except json.JSONDecodeError:
        return Parsed("malformed_call", thought, call_text=body, error=MALFORMED_JSON)
    if not isinstance(payload, dict) or not isinstance(payload.get("name"), str):
        return Parsed("malformed_call", thought, call_text=body, error=MALFORMED_SHAPE)
    return Parsed(
        "tool_call",
        thought,
        tool=payload["name"],
        arguments=payload.get("arguments", {}),
        call_text=body,
    )


def observation_of(response: str | None) -> str:
    """The observation inside a tool-response message ('' for None)."""
    if response is None:
        return ""
    match = _RESPONSE.match(response)
    return match.group(1).strip() if match else response.strip()


@dataclass(frozen=True)
class Turn:
    """One assistant message and the tool response answering it; `index` is its 1-based
    position in the trajectory it was first written in (kept when a trajectory is pruned)."""

    index: int
    content: str
    response: str | None = None

    @cached_property
    def parsed(self) -> Parsed:
        return parse_assistant(self.content)

    @property
    def kind(self) -> TurnKind:
        return self.parsed.kind

    @property
    def thought(self) -> str:
        return self.parsed.thought

    @property
    def tool(self) -> str:
        return self.parsed.tool

    @property
    def arguments(self) -> Any:
        return self.parsed.arguments

    @property
    def answer(self) -> str | None:
        return self.parsed.answer if self.parsed.kind == "answer" else None

    @property
    def is_answer(self) -> bool:
        return self.parsed.kind == "answer"

    @property
    def is_call(self) -> bool:
        """A tool call, well formed or not (a round the agent spent on a tool)."""
        return self.parsed.kind in ("tool_call", "malformed_call")

    @property
    def observation(self) -> str:
        return observation_of(self.response)

    def action_text(self) -> str:
        """What the agent wrote in this turn: thought and arguments, or the answer."""
        parts = [self.thought]
        if self.parsed.kind == "tool_call":
            parts.append(json.dumps(self.arguments, ensure_ascii=False))
        if self.parsed.kind == "answer":
            parts.append(self.parsed.answer)
        return "\n".join(p for p in parts if p)

    def with_thought(self, thought: str) -> Turn:
        """The same turn with another thought; its tool call or answer kept verbatim."""
        p = self.parsed
        if p.kind in ("tool_call", "malformed_call"):
            content = f"<think>{thought}</think>\n<tool_call>{p.call_text}</tool_call>"
        elif p.kind == "answer":
            content = assistant_text(thought, answer=p.answer)
        else:
            content = thought
        return replace(self, content=content)

    def tokens(self) -> int:
        return count_tokens(self.content) + count_tokens(self.response or "")


@dataclass(frozen=True)
class Trajectory:
    """THE shape of a trajectory: question, date of the system prompt, and turns."""

    question: str
    turns: tuple[Turn, ...] = ()
    date: str = field(default_factory=today)

    @property
    def rounds(self) -> int:
        """Rounds: assistant messages (LLM calls), the answer included (WebClipper's count)."""
        return len(self.turns)

    @property
    def tool_calls(self) -> int:
        """Tool calls (the T of ISE)."""
        return sum(1 for t in self.turns if t.is_call)

    @property
    def answer(self) -> str:
        last = self.turns[-1] if self.turns else None
        return (last.answer or "") if last is not None else ""

    def tokens(self) -> int:
        """Tokens of every assistant and tool-response message (`count_tokens`), the system
        prompt and the question excluded: what pruning removes and training pays for."""
        return sum(t.tokens() for t in self.turns)

    def add(self, content: str, response: str | None = None) -> Turn:
        """Append a turn (immutably: returns the new turn; use `with_turn` for the trajectory)."""
        return Turn(len(self.turns) + 1, content, response)

    def with_turn(self, content: str, response: str | None = None) -> Trajectory:
        return replace(self, turns=(*self.turns, self.add(content, response)))

    def keep(self, indexes: Sequence[int]) -> Trajectory:
        """The trajectory with only the turns whose `index` is listed (the last turn always)."""
        wanted = set(indexes) | ({self.turns[-1].index} if self.turns else set())
        return replace(self, turns=tuple(t for t in self.turns if t.index in wanted))

    def messages(self) -> list[Message]:
        """The chat in the wire format (what a model is trained on and continues)."""
        out: list[Message] = [
            {"role": "system", "content": system_prompt(self.date)},
            {"role": "user", "content": self.question},
        ]
        for turn in self.turns:
            out.append({"role": "assistant", "content": turn.content})
            if turn.response is not None:
                out.append({"role": "user", "content": turn.response})
        return out


_DATE = re.compile(r"Current date: (\S+)\s*$")


def parse_messages(messages: Sequence[Message]) -> Trajectory:
    """A chat in the wire format back into a `Trajectory`; raises `WireFormatError`."""
    if len(messages) < 2:
        raise WireFormatError(
            f"a trajectory needs a system and a user message, got {len(messages)}"
        )
    roles = [m.get("role") for m in messages]
    if roles[0] != "system" or roles[1] != "user":
        raise WireFormatError("a trajectory starts with a system and a user message")
    for i, m in enumerate(messages):
        if not isinstance(m.get("content"), str):
            raise WireFormatError(f"message {i}: content must be a string")
    date = _DATE.search(messages[0]["content"])
    turns: list[Turn] = []
    i = 2
    while i < len(messages):
        if roles[i] != "assistant":
            raise WireFormatError(f"message {i}: expected an assistant message, got {roles[i]}")
        content = messages[i]["content"]
        response = None
        if i + 1 < len(messages):
            if roles[i + 1] != "user" or not _RESPONSE.match(messages[i + 1]["content"]):
                raise WireFormatError(f"message {i + 1}: expected a user <tool_response>")
            response = messages[i + 1]["content"]
        turns.append(Turn(len(turns) + 1, content, response))
        i += 2
    return Trajectory(messages[1]["content"], tuple(turns), date.group(1) if date else today())


def check_complete(trajectory: Trajectory) -> None:
    """Raise `WireFormatError` unless every turn but the last is a well-formed call of a known
    tool with its response, and the last is an answer (what a training example must be)."""
    if not trajectory.turns:
        raise WireFormatError("the trajectory has no assistant turn")
    *calls, last = trajectory.turns
    for turn in calls:
        if turn.kind != "tool_call" or turn.tool not in TOOL_NAMES:
            raise WireFormatError(
                f"turn {turn.index}: expected a call of {'/'.join(TOOL_NAMES)}, got {turn.kind}"
            )
        if turn.response is None:
            raise WireFormatError(f"turn {turn.index}: the tool call has no response")
    if not last.is_answer or last.response is not None:
        raise WireFormatError(f"turn {last.index}: the last turn must be an answer")


def count_tokens(text: str) -> int:
    """Word and punctuation pieces (``\\w+|[^\\w\\s]``): the one rule for lengths."""
    return len(_TOKEN.findall(text))


def format_score(content: str) -> float:
    """How well one assistant message follows the format (GRPO's shaping reward).

    1.0: an answer, optionally after one thought, and nothing else; 0.5: one well-formed tool
    call (a JSON object with ``name`` and ``arguments``), optionally after one thought, and
    nothing else; otherwise 0.1 per distinct wire tag present, at most 0.4 (a small model gets
    a gradient toward the format before it masters it).
    """
    p = parse_assistant(content)
    body = content.strip()
    if body.startswith("<think>") and "</think>" in body:
        body = body.split("</think>", 1)[1].strip()
    alone = body.count("<answer>") + body.count("<tool_call>") == 1
    if p.kind == "answer" and alone and body.startswith("<answer>") and body.endswith("</answer>"):
        return 1.0
    call = (
        p.kind == "tool_call" and body.startswith("<tool_call>") and body.endswith("</tool_call>")
    )
    if call and alone and "arguments" in json.loads(p.call_text):
        return 0.5
    return min(0.4, 0.1 * sum(1 for tag in WIRE_TAGS if tag in content))
