"""The ReAct loop in the Tongyi-DeepResearch format, over any `LLMBackend` and `ToolBox`.

Each round: check the budgets (rounds, context tokens, wall time), ask the backend for one
assistant message (stopped before ``<tool_response>``), then either finish on ``<answer>``, run
the ``<tool_call>`` and append its ``<tool_response>``, or end with `format_error` when the
message has neither. A malformed tool call (bad JSON, unknown tool, bad arguments) is an
expected failure and comes back as an observation, as in Tongyi's agent. A backend failure ends
the rollout with `backend_error` and is recorded in `Trajectory.error`, never as message text.
Transient backend errors are retried with exponential backoff, a bounded number of times.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from typing import Any

from agent.trajectory import Termination, Trajectory, tool_call_text
from agent.web.tools import Observation, ToolBox
from common.llm.base import LLMBackend
from common.llm.errors import BackendError, TransientBackendError

STOP = ["\n<tool_response>", "<tool_response>"]
_THINK = re.compile(r"<think>(.*?)(?:</think>|$)", re.S)
_ANSWER = re.compile(r"<answer>(.*?)(?:</answer>|$)", re.S)
_TOOL_CALL = re.compile(r"<tool_call>(.*?)(?:</tool_call>|$)", re.S)


@dataclass(frozen=True)
class ReactConfig:
    """Budgets and sampling of one ReAct rollout."""

    max_rounds: int = 100  # assistant messages (LLM calls), as in Tongyi and WebClipper
    max_context_tokens: int = 32_000  # prompt size at which the rollout stops
    max_seconds: float = 600.0  # wall time of one rollout
    max_tokens: int = 512  # per assistant message
    temperature: float = 0.0
    seed: int | None = None
    retries: int = 3  # for TransientBackendError
    backoff_seconds: float = 0.5


@dataclass(frozen=True)
class ParsedMessage:
    thought: str
    answer: str | None = None
    tool: str | None = None
    arguments: Any = None
    call_error: str | None = None  # a tool call was attempted but could not be read

    @property
    def is_valid(self) -> bool:
        return self.answer is not None or self.tool is not None or self.call_error is not None


def parse_message(text: str) -> ParsedMessage:
    """Read thought, answer or tool call from one assistant message."""
    think = _THINK.search(text)
    thought = (
        think.group(1).strip()
        if think
        else text.split("<tool_call>")[0].split("<answer>")[0].strip()
    )
    answer = _ANSWER.search(text)
    if answer:
        return ParsedMessage(thought, answer=answer.group(1).strip())
    call = _TOOL_CALL.search(text)
    if not call:
        return ParsedMessage(thought)
    try:
        payload = json.loads(call.group(1).strip())
    except json.JSONDecodeError:
        return ParsedMessage(
            thought,
            call_error="Error: Tool call is not a valid JSON. Tool "
            'call must contain a valid "name" and "arguments" field.',
        )
    if not isinstance(payload, dict) or not isinstance(payload.get("name"), str):
        return ParsedMessage(
            thought,
            call_error="Error: Tool call must be a JSON object with "
            'a "name" and an "arguments" field.',
        )
    return ParsedMessage(thought, tool=payload["name"], arguments=payload.get("arguments", {}))


def _generate(backend: LLMBackend, trajectory: Trajectory, config: ReactConfig) -> Any:
    attempt = 0
    while True:
        try:
            return backend.generate(
                trajectory.messages,
                stop=STOP,
                max_tokens=config.max_tokens,
                temperature=config.temperature,
                seed=config.seed,
            )
        except TransientBackendError:
            if attempt >= config.retries:
                raise
            time.sleep(config.backoff_seconds * 2**attempt)
            attempt += 1


def run_react(
    backend: LLMBackend,
    tools: ToolBox,
    question: str,
    config: ReactConfig | None = None,
    *,
    date: str | None = None,
) -> Trajectory:
    """Run one ReAct rollout to termination and return the trajectory."""
    config = config or ReactConfig()
    trajectory = Trajectory.start(question, date)
    started = time.monotonic()
    try:
        while trajectory.termination is None:
            if trajectory.rounds >= config.max_rounds:
                trajectory.termination = Termination.MAX_ROUNDS
                break
            if time.monotonic() - started > config.max_seconds:
                trajectory.termination = Termination.TIMEOUT
                break
            if backend.count_tokens(trajectory.messages) > config.max_context_tokens:
                trajectory.termination = Termination.CONTEXT_LIMIT
                break
            generation = _generate(backend, trajectory, config)
            trajectory.prompt_tokens += generation.prompt_tokens
            trajectory.completion_tokens += generation.completion_tokens
            text = generation.text
            for stop in STOP:  # servers that ignore `stop` still must not write responses
                text = text.split(stop)[0]
            text = text.strip()
            parsed = parse_message(text)
            tokens = generation.completion_tokens
            if parsed.answer is not None:
                trajectory.add_answer(text, parsed.thought, parsed.answer, tokens=tokens)
            elif parsed.call_error is not None:
                trajectory.add_tool_step(
                    text,
                    parsed.thought,
                    "",
                    None,
                    Observation(parsed.call_error, error="malformed_tool_call"),
                    tokens=tokens,
                )
            elif parsed.tool is not None:
                observation = tools.call(parsed.tool, parsed.arguments)
                trajectory.add_tool_step(
                    text, parsed.thought, parsed.tool, parsed.arguments, observation, tokens=tokens
                )
            else:
                trajectory.add_invalid(text, tokens=tokens)
                trajectory.termination = Termination.FORMAT_ERROR
    except BackendError as e:
        trajectory.termination = Termination.BACKEND_ERROR
        trajectory.error = f"{type(e).__name__}: {e}"
    trajectory.seconds = time.monotonic() - started
    return trajectory


__all__ = ["ReactConfig", "Termination", "parse_message", "run_react", "tool_call_text"]
