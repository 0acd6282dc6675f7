"""One rollout while it runs and once it is done: the wire-format trajectory plus measurements.

The trajectory itself is `seekgraph.common.wire.Trajectory` (question, date, turns as the agent wrote them
and as the tools answered), the one shape stored and read everywhere. A `Rollout` adds what the
rollout measured about each turn (`StepRecord`: the pages a tool saw, the tokens the policy
generated, whether the turn was a recorded teacher detour) and how it ended.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from seekgraph.agent.web.tools import Observation
from seekgraph.common.wire import Trajectory, today, tool_response_text


class Termination(StrEnum):
    """Why a rollout ended (stored as `Rollout.termination`)."""

    ANSWER = "answer"
    MAX_ROUNDS = "max_rounds"
    CONTEXT_LIMIT = "context_limit"
    TIMEOUT = "timeout"
    FORMAT_ERROR = "format_error"
    BACKEND_ERROR = "backend_error"


@dataclass(frozen=True)
class StepRecord:
    """What a rollout measured about one turn (not part of the trajectory's text)."""

    pages: tuple[str, ...] = ()  # pages the tool call returned or visited (SAW edges)
    tokens: int = 0  # tokens the policy generated for this turn (LLM usage)
    detour_kind: str = ""  # teacher: redundant_search | irrelevant_visit | reverification
    error: str | None = None  # the tool's error code, if any


@dataclass
class Rollout:
    """A trajectory being written: turns are appended with what they measured."""

    trajectory: Trajectory
    steps: list[StepRecord] = field(default_factory=list)
    termination: Termination | None = None
    prediction: str = ""
    prompt_tokens: int = 0  # LLM usage, summed over rounds
    completion_tokens: int = 0
    seconds: float = 0.0
    error: str | None = None  # a backend failure (never written into the trajectory)

    @classmethod
    def start(cls, question: str, date: str | None = None) -> Rollout:
        return cls(Trajectory(question, date=date or today()))

    @property
    def rounds(self) -> int:
        return self.trajectory.rounds

    @property
    def messages(self) -> list[dict[str, str]]:
        return self.trajectory.messages()

    def add_tool_turn(
        self, content: str, observation: Observation, *, tokens: int = 0, detour_kind: str = ""
    ) -> None:
        """An assistant tool call (well formed or not) and the tool response to it."""
        self.trajectory = self.trajectory.with_turn(content, tool_response_text(observation.text))
        self.steps.append(StepRecord(observation.pages, tokens, detour_kind, observation.error))

    def add_answer(self, content: str, answer: str, *, tokens: int = 0) -> None:
        self.trajectory = self.trajectory.with_turn(content)
        self.steps.append(StepRecord(tokens=tokens))
        self.prediction = answer
        self.termination = Termination.ANSWER

    def add_invalid(self, content: str, *, tokens: int = 0) -> None:
        """An assistant message with neither a tool call nor an answer (a format error)."""
        self.trajectory = self.trajectory.with_turn(content)
        self.steps.append(StepRecord(tokens=tokens))
        self.termination = Termination.FORMAT_ERROR

    @property
    def detours(self) -> list[dict[str, Any]]:
        """Recorded detours: ``{"turn": i, "kind": ...}`` (turn indexes are 1-based)."""
        return [
            {"turn": turn.index, "kind": step.detour_kind}
            for turn, step in zip(self.trajectory.turns, self.steps, strict=True)
            if step.detour_kind
        ]
