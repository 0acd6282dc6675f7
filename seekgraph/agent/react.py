"""The ReAct loop in the Tongyi-DeepResearch format, over any `LLMBackend` and `ToolBox`.

Each round: check the budgets (rounds, context tokens, wall time), ask the backend for one
assistant message (stopped before ``<tool_response>``), then either finish on ``<answer>``, run
the ``<tool_call>`` and append its ``<tool_response>``, or end with `format_error` when the
message has neither. A malformed tool call (bad JSON, unknown tool, bad arguments) is an
expected failure and comes back as an observation, as in Tongyi's agent. A backend failure ends
the rollout with `backend_error` and is recorded in `Rollout.error`, never as message text.
Messages are read by the one wire-format parser (`seekgraph.common.wire.parse_assistant`).
Transient backend errors are retried with exponential backoff, a bounded number of times.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from seekgraph.agent.trajectory import Rollout, Termination
from seekgraph.agent.web.tools import Observation, ToolBox
from seekgraph.common.llm.base import LLMBackend
from seekgraph.common.llm.errors import BackendError, TransientBackendError
from seekgraph.common.wire import STOP, cut_at_stop, parse_assistant


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


def _generate(backend: LLMBackend, rollouts: list[Rollout], config: ReactConfig) -> list[Any]:
    """One assistant message per rollout: one batched call when the backend computes batches
    (`generate_batch`), else one call each; transient failures retried with backoff."""
    options: dict[str, Any] = {
        "stop": STOP,
        "max_tokens": config.max_tokens,
        "temperature": config.temperature,
        "seed": config.seed,
    }
    attempt = 0
    while True:
        try:
            batch = getattr(backend, "generate_batch", None)
            if batch is not None and len(rollouts) > 1:
                return list(batch([r.messages for r in rollouts], **options))
            return [backend.generate(r.messages, **options) for r in rollouts]
        except TransientBackendError:
            if attempt >= config.retries:
                raise
            time.sleep(config.backoff_seconds * 2**attempt)
            attempt += 1


def _over_budget(
    backend: LLMBackend, rollout: Rollout, config: ReactConfig, elapsed: float
) -> Termination | None:
    if rollout.rounds >= config.max_rounds:
        return Termination.MAX_ROUNDS
    if elapsed > config.max_seconds:
        return Termination.TIMEOUT
    if backend.count_tokens(rollout.messages) > config.max_context_tokens:
        return Termination.CONTEXT_LIMIT
    return None


def run_react(
    backend: LLMBackend,
    tools: ToolBox,
    question: str,
    config: ReactConfig | None = None,
    *,
    date: str | None = None,
) -> Rollout:
    """Run one ReAct rollout to termination and return it."""
    return run_react_batch(backend, tools, [question], config, date=date)[0]


def run_react_batch(
    backend: LLMBackend,
    tools: ToolBox,
    questions: list[str],
    config: ReactConfig | None = None,
    *,
    date: str | None = None,
) -> list[Rollout]:
    """Run one rollout per question in lock step, each to its own termination.

    Every round, the rollouts still running get their next message from one batched
    generation (see `_generate`); each then acts on its own message. Budgets are per rollout
    (its rounds and context; the wall time is the batch's). A backend failure ends every
    rollout of the round with `backend_error`. The batch a rollout runs in is fixed by the
    caller, so the same batches give the same rollouts."""
    config = config or ReactConfig()
    rollouts = [Rollout.start(q, date) for q in questions]
    started = time.monotonic()
    running = list(rollouts)
    while running:
        elapsed = time.monotonic() - started
        ready = []
        try:
            for rollout in running:
                ended = _over_budget(backend, rollout, config, elapsed)
                if ended is None:
                    ready.append(rollout)
                else:
                    rollout.termination = ended
                    rollout.seconds = elapsed
            if not ready:
                break
            generations = _generate(backend, ready, config)
        except BackendError as e:
            for rollout in running:
                if rollout.termination is not None:  # ended by a budget this round
                    continue
                rollout.termination = Termination.BACKEND_ERROR
                rollout.error = f"{type(e).__name__}: {e}"
                rollout.seconds = time.monotonic() - started
            break
        for rollout, generation in zip(ready, generations, strict=True):
            rollout.prompt_tokens += generation.prompt_tokens
            rollout.completion_tokens += generation.completion_tokens
            # servers that ignore `stop` still must not write tool responses
            text = cut_at_stop(generation.text).strip()
            _act(rollout, tools, text, generation.completion_tokens)
            if rollout.termination is not None:
                rollout.seconds = time.monotonic() - started
        running = [r for r in ready if r.termination is None]
    return rollouts


def _act(rollout: Rollout, tools: ToolBox, text: str, tokens: int) -> None:
    """Record one assistant message: answer, tool call (run it), malformed call, or invalid."""
    parsed = parse_assistant(text)
    if parsed.kind == "answer":
        rollout.add_answer(text, parsed.answer, tokens=tokens)
    elif parsed.kind == "malformed_call":
        observation = Observation(parsed.error, error="malformed_tool_call")
        rollout.add_tool_turn(text, observation, tokens=tokens)
    elif parsed.kind == "tool_call":
        rollout.add_tool_turn(text, tools.call(parsed.tool, parsed.arguments), tokens=tokens)
    else:
        rollout.add_invalid(text, tokens=tokens)


__all__ = ["ReactConfig", "Termination", "run_react"]
