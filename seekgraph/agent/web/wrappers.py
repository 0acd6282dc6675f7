"""Tool boxes that wrap another: `CutTools` cuts every observation to a character budget,
`CachedTools` answers repeated requests from the `ToolCall` nodes of the graph.

Kept apart from `seekgraph.agent.web.tools` because they change how a tool box is reached (what
the model is shown, whether the tool runs at all), never what the tools answer; the policies
stack them over `WebTools` (`seekgraph.agent.policies`).
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field, replace
from typing import Any

from seekgraph.agent.web.tools import Observation, ToolBox, WebTools
from seekgraph.graphdb import cypher
from seekgraph.graphdb.ids import stable_id


def cut_text(text: str, chars: int) -> str:
    r"""`text` cut to about `chars` characters at a line (else word) boundary, with a marker
    saying how much was cut; unchanged when it fits or `chars` is 0.

    A model with a short context reads every tool response through this cut, in training and
    in rollouts alike, so what it learnt to read is what it is shown.

    >>> cut_text("one two\nthree four", 12)
    'one two\n[... 11 characters cut]'
    """
    if chars <= 0 or len(text) <= chars:
        return text
    head = text[:chars]
    edge = max(head.rfind("\n"), head.rfind(" ") if "\n" not in head else -1)
    if edge > chars // 2:
        head = head[:edge]
    head = head.rstrip()
    return f"{head}\n[... {len(text) - len(head)} characters cut]"


@dataclass
class CutTools:
    """A `ToolBox` whose observations are cut to `chars` characters (`cut_text`)."""

    tools: ToolBox
    chars: int

    def call(self, name: str, arguments: Any) -> Observation:
        observation = self.tools.call(name, arguments)
        return replace(observation, text=cut_text(observation.text, self.chars))


def request_hash(name: str, arguments: Any, salt: str) -> str:
    """The tool-cache key: a hash of the tool, its canonical arguments and the tools' setup."""
    return stable_id("toolcall", name, arguments, salt, length=24)


@dataclass
class CachedTools:
    """A `ToolBox` that answers repeated requests from `ToolCall` nodes (keyed by request hash).

    A re-run (after a kill, or another rollout asking the same thing) repeats no tool work.
    """

    tools: WebTools
    hits: int = 0
    misses: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def call(self, name: str, arguments: Any) -> Observation:
        key = request_hash(name, arguments, self.tools.cache_salt)
        rows = cypher.read(
            self.tools.driver, "agent/find_tool_calls", database=self.tools.database, hashes=[key]
        )
        if rows:
            with self._lock:
                self.hits += 1
            stored = json.loads(rows[0]["response"])
            return Observation(stored["text"], tuple(rows[0]["pages"]), stored.get("error"))
        observation = self.tools.call(name, arguments)
        with self._lock:
            self.misses += 1
        response = json.dumps(
            {"text": observation.text, "error": observation.error}, ensure_ascii=False
        )
        cypher.run_batches(
            self.tools.driver,
            "agent/merge_tool_calls",
            [
                {
                    "request_hash": key,
                    "tool": name,
                    "arguments_json": json.dumps(
                        arguments, ensure_ascii=False, sort_keys=True, default=str
                    ),
                    "response": response,
                    "pages": list(observation.pages),
                }
            ],
            database=self.tools.database,
        )
        return observation
