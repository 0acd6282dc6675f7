"""The ReAct loop: message format, budgets and every termination reason.

`ScriptedBackend` is a TEST DOUBLE for loop mechanics only (it replays fixed assistant texts);
the SmolLM2 test at the end runs the real transformers backend end to end.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import neo4j
import pytest

from seekgraph.agent.react import ReactConfig, run_react
from seekgraph.agent.trajectory import Termination
from seekgraph.agent.web.tools import WebTools
from seekgraph.common.llm.base import Generation, Message
from seekgraph.common.llm.errors import BackendError, TransientBackendError
from tests.agent_fixture import load_fixture


@dataclass
class ScriptedBackend:
    """Replays `script`; an exception in the script is raised instead of answering."""

    script: list[str | Exception]
    tokens_per_message: int = 10
    name: str = "scripted"
    calls: int = 0
    seen: list[list[Message]] = field(default_factory=list)

    def generate(
        self,
        messages: list[Message],
        *,
        stop: list[str] | None = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
        seed: int | None = None,
    ) -> Generation:
        self.seen.append([dict(m) for m in messages])
        item = self.script[min(self.calls, len(self.script) - 1)]
        self.calls += 1
        if isinstance(item, Exception):
            raise item
        return Generation(item, self.count_tokens(messages), 5, "stop")

    def count_tokens(self, messages: list[Message]) -> int:
        return self.tokens_per_message * len(messages)


def call(name: str, **arguments: object) -> str:
    payload = json.dumps({"name": name, "arguments": arguments})
    return f"<think>I should use {name}.</think>\n<tool_call>\n{payload}\n</tool_call>"


@pytest.fixture
def tools(clean_db: neo4j.Driver, database: str | None) -> WebTools:
    load_fixture(clean_db, database)
    return WebTools(clean_db, database)


def test_answer_after_tool_calls_in_tongyi_format(tools) -> None:
    backend = ScriptedBackend(
        [
            call("search", query=["Lord of the Flies"]),
            call("visit", url=["/wiki/Lord_of_the_Flies"], goal="author"),
            "<think>Found it.</think>\n<answer>William Golding</answer>",
        ]
    )
    t = run_react(backend, tools, "Who wrote Lord of the Flies?", date="2026-01-01")
    assert t.termination == Termination.ANSWER
    assert t.prediction == "William Golding"
    kinds = [turn.kind for turn in t.trajectory.turns]
    assert t.rounds == 3 and kinds == ["tool_call", "tool_call", "answer"]
    roles = [m["role"] for m in t.messages]
    assert roles == ["system", "user", "assistant", "user", "assistant", "user", "assistant"]
    assert "Current date: 2026-01-01" in t.messages[0]["content"]
    assert '"name": "search"' in t.messages[0]["content"]
    assert t.messages[3]["content"].startswith("<tool_response>\nA Google search for")
    assert t.messages[5]["content"].endswith("</tool_response>")
    assert t.steps[1].pages == ("/wiki/Lord_of_the_Flies",)
    assert t.prompt_tokens == 20 + 40 + 60 and t.completion_tokens == 15


def test_malformed_tool_calls_are_observations_not_terminations(tools) -> None:
    backend = ScriptedBackend(
        [
            "<tool_call>{broken</tool_call>",
            call("browse", url="x"),
            call("search", query=""),
            "<answer>x</answer>",
        ]
    )
    t = run_react(backend, tools, "q")
    assert t.termination == Termination.ANSWER
    observations = [turn.observation for turn in t.trajectory.turns[:3]]
    assert [turn.kind for turn in t.trajectory.turns[:3]] == [
        "malformed_call",
        "tool_call",
        "tool_call",
    ]
    assert t.steps[0].error == "malformed_tool_call"
    assert "not a valid JSON" in observations[0]
    assert "does not exist" in observations[1]
    assert "Invalid request format" in observations[2]


def test_format_error_ends_the_rollout(tools) -> None:
    t = run_react(ScriptedBackend(["The answer is probably Golding."]), tools, "q")
    assert t.termination == Termination.FORMAT_ERROR
    assert t.trajectory.turns[-1].kind == "invalid" and t.prediction == ""


def test_budgets(tools) -> None:
    loop = ScriptedBackend([call("search", query=["Booker Prize"])])
    t = run_react(loop, tools, "q", ReactConfig(max_rounds=3))
    assert t.termination == Termination.MAX_ROUNDS and t.rounds == 3
    big = ScriptedBackend([call("search", query=["Booker Prize"])], tokens_per_message=100)
    t = run_react(big, tools, "q", ReactConfig(max_context_tokens=450))
    # 2 messages (200) -> 4 (400) -> 6 (600 > 450): two rounds, then the context limit
    assert t.termination == Termination.CONTEXT_LIMIT and t.rounds == 2
    t = run_react(loop, tools, "q", ReactConfig(max_seconds=-1))
    assert t.termination == Termination.TIMEOUT and t.rounds == 0


def test_backend_failures_never_become_trajectory_text(tools) -> None:
    backend = ScriptedBackend([call("search", query=["Booker"]), BackendError("server down")])
    t = run_react(backend, tools, "q")
    assert t.termination == Termination.BACKEND_ERROR
    assert t.error == "BackendError: server down"
    assert all("server down" not in m["content"] for m in t.messages)
    assert len(t.messages) == 4
    flaky = ScriptedBackend([TransientBackendError("503"), "<answer>ok</answer>"])
    flaky.script = [TransientBackendError("503"), "<answer>ok</answer>"]
    t = run_react(flaky, tools, "q", ReactConfig(backoff_seconds=0.0))
    assert t.termination == Termination.ANSWER and t.prediction == "ok"
    always = ScriptedBackend([TransientBackendError("503")])
    t = run_react(always, tools, "q", ReactConfig(retries=2, backoff_seconds=0.0))
    assert t.termination == Termination.BACKEND_ERROR and always.calls == 3


@pytest.mark.slow
def test_smollm2_runs_end_to_end_through_the_transformers_backend(tools) -> None:
    from seekgraph.common.llm.registry import load_backend

    backend = load_backend("transformers")
    t = run_react(
        backend,
        tools,
        "Who wrote Lord of the Flies?",
        ReactConfig(max_rounds=1, max_tokens=32, max_seconds=300),
    )
    assert t.termination in set(Termination)
    assert t.termination != Termination.BACKEND_ERROR, t.error
    assert t.rounds >= 1 and t.completion_tokens > 0
    assert t.messages[2]["role"] == "assistant"
