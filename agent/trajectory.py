"""A trajectory in the Tongyi-DeepResearch format, shared by the ReAct agent and the teacher.

Messages: system, user (question), then per round an assistant message
``<think>…</think>\\n<tool_call>\\n{"name": …, "arguments": …}\\n</tool_call>`` answered by a user
message ``<tool_response>\\n…\\n</tool_response>``, and finally
``<think>…</think>\\n<answer>…</answer>``. Each assistant action is one `Step`.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from agent.web.tools import TOOL_SPECS, Observation

Message = dict[str, str]


class Termination(StrEnum):
    """Why a rollout ended (stored as `Rollout.termination`)."""

    ANSWER = "answer"
    MAX_ROUNDS = "max_rounds"
    CONTEXT_LIMIT = "context_limit"
    TIMEOUT = "timeout"
    FORMAT_ERROR = "format_error"
    BACKEND_ERROR = "backend_error"


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


def system_prompt(date: str | None = None) -> str:
    tools = "\n".join(json.dumps(spec["function"], ensure_ascii=False) for spec in TOOL_SPECS)
    return SYSTEM_PROMPT.format(tools=tools, date=date or dt.date.today().isoformat())


def tool_call_text(name: str, arguments: dict[str, Any]) -> str:
    payload = json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False)
    return f"<tool_call>\n{payload}\n</tool_call>"


def tool_response_text(observation: str) -> str:
    return f"<tool_response>\n{observation}\n</tool_response>"


@dataclass
class Step:
    """One assistant action and what came back (`role`: tool_call, answer or invalid)."""

    index: int
    role: str
    thought: str
    tool: str = ""
    arguments: Any = None
    observation: str = ""
    pages: tuple[str, ...] = ()
    tokens: int = 0
    is_detour: bool = False
    detour_kind: str = ""


@dataclass
class Trajectory:
    """Messages, steps and outcome of one rollout; `error` holds a backend failure (never text)."""

    question: str
    messages: list[Message] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    termination: Termination | None = None
    prediction: str = ""
    rounds: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    error: str | None = None
    detours: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def start(cls, question: str, date: str | None = None) -> Trajectory:
        return cls(
            question,
            messages=[
                {"role": "system", "content": system_prompt(date)},
                {"role": "user", "content": question},
            ],
        )

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def add_tool_step(
        self,
        content: str,
        thought: str,
        tool: str,
        arguments: Any,
        observation: Observation,
        *,
        tokens: int = 0,
        detour_kind: str = "",
    ) -> Step:
        """Record an assistant tool call and its response (one round)."""
        step = Step(
            len(self.steps),
            "tool_call",
            thought,
            tool,
            arguments,
            observation.text,
            observation.pages,
            tokens,
            bool(detour_kind),
            detour_kind,
        )
        self.messages.append({"role": "assistant", "content": content})
        self.messages.append({"role": "user", "content": tool_response_text(observation.text)})
        self.steps.append(step)
        self.rounds += 1
        if detour_kind:
            self.detours.append(
                {"step": step.index, "kind": detour_kind, "tool": tool, "arguments": arguments}
            )
        return step

    def add_answer(self, content: str, thought: str, answer: str, *, tokens: int = 0) -> Step:
        step = Step(len(self.steps), "answer", thought, observation="", tokens=tokens)
        self.messages.append({"role": "assistant", "content": content})
        self.steps.append(step)
        self.rounds += 1
        self.prediction = answer
        self.termination = Termination.ANSWER
        return step

    def add_invalid(self, content: str, *, tokens: int = 0) -> Step:
        """An assistant message with neither a tool call nor an answer (format error)."""
        step = Step(len(self.steps), "invalid", thought=content[:2000], tokens=tokens)
        self.messages.append({"role": "assistant", "content": content})
        self.steps.append(step)
        self.rounds += 1
        return step
