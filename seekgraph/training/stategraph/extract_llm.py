"""LLM-based state-graph extraction: prompted JSON through `seekgraph.common.llm.base.LLMBackend`, 3 runs.

Per run, two kinds of prompts (both short, so a small CPU model can answer them):

1. *facts*: for the question and each observation, "list at most k atomic facts as a JSON list
   of strings"; each fact becomes an Information node (key: its normalized text, so the same
   fact stated twice has two producers) produced by that action;
2. *uses*: for each action, the facts produced so far are numbered and the model answers "which
   of these does this step rely on" as a JSON list of numbers; those become ENABLES edges.

Runs differ by seed (run 0 greedy, later runs sampled at `temperature`), which gives the vote
three independent constructions. Unparseable replies count as failures in `graph.notes` (never
as facts), so a weak model yields sparse graphs, reported as such, rather than invented ones.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from seekgraph.common.llm.base import LLMBackend, Message
from seekgraph.common.wire import Trajectory
from seekgraph.training.stategraph.extract_rules import returned_texts
from seekgraph.training.stategraph.model import StateGraph

_LIST = re.compile(r"\[.*?\]", re.S)
_SPACE = re.compile(r"\s+")

FACTS_SYSTEM = (
    "You extract atomic facts from text returned by a web tool. Reply with a JSON list "
    "of at most {k} short facts (strings), nothing else."
)
USES_SYSTEM = (
    "You decide which known facts an agent's step relies on. Reply with a JSON list of "
    "fact numbers, nothing else (an empty list if none)."
)


def parse_json_list(text: str) -> list[Any] | None:
    """The first JSON list in `text`, or None when there is none that parses."""
    for match in _LIST.finditer(text):
        try:
            value = json.loads(match.group(0))
        except json.JSONDecodeError:
            continue
        if isinstance(value, list):
            return value
    return None


def close_list(text: str) -> str:
    """Restore the `]` a stop string cut off (stop strings are excluded from the reply).

    Generation stops at the first `]`, which ends the first JSON list, the only part
    `parse_json_list` reads, so a reply costs as many tokens as its list (a rambling tail
    was most of the time on CPU). A `]` inside a fact string ends the list early and the
    reply then fails to parse (counted as a failure, like any other). Backends report an
    end-of-sequence as "stop" too, so a list the model itself left open is closed as well.

    >>> close_list('Facts: ["a", "b"'), close_list("no list"), close_list("[1, 2]")
    ('Facts: ["a", "b"]', 'no list', '[1, 2]')
    """
    start = text.find("[")
    if start < 0 or "]" in text[start:]:
        return text
    return text + "]"


def fact_key(text: str) -> str:
    norm = _SPACE.sub(" ", text).strip().lower()
    return "f:" + hashlib.sha1(norm.encode("utf-8")).hexdigest()[:12]


@dataclass
class LLMExtractor:
    """Builds `runs` state graphs of a trajectory with an LLM (see the module docstring)."""

    backend: LLMBackend
    runs: int = 3
    max_facts: int = 5
    max_known: int = 20
    source_chars: int = 1500
    temperature: float = 0.7
    facts_tokens: int = 96
    uses_tokens: int = 32
    stop_at_list_end: bool = True  # stop generating at the first "]" (see `close_list`)

    def _ask(self, messages: list[Message], run: int, max_tokens: int) -> str:
        generation = self.backend.generate(
            messages,
            max_tokens=max_tokens,
            temperature=0.0 if run == 0 else self.temperature,
            seed=run,
            stop=["]"] if self.stop_at_list_end else None,
        )
        if self.stop_at_list_end and generation.finish_reason == "stop":
            return close_list(generation.text)
        return generation.text

    def facts(self, text: str, run: int) -> list[str] | None:
        messages = [
            {"role": "system", "content": FACTS_SYSTEM.format(k=self.max_facts)},
            {"role": "user", "content": text[: self.source_chars]},
        ]
        parsed = parse_json_list(self._ask(messages, run, self.facts_tokens))
        if parsed is None:
            return None
        return [str(f).strip() for f in parsed if str(f).strip()][: self.max_facts]

    def uses(self, action: str, known: list[str], run: int) -> list[int] | None:
        numbered = "\n".join(f"{i + 1}. {f}" for i, f in enumerate(known))
        messages = [
            {"role": "system", "content": USES_SYSTEM},
            {"role": "user", "content": f"Known facts:\n{numbered}\n\nStep:\n{action}"},
        ]
        parsed = parse_json_list(self._ask(messages, run, self.uses_tokens))
        if parsed is None:
            return None
        return [int(x) - 1 for x in parsed if isinstance(x, int | float) and 1 <= x <= len(known)]

    def extract_run(self, trajectory: Trajectory, run: int) -> StateGraph:
        sources = returned_texts(trajectory)
        actions = [""] + [t.action_text() for t in trajectory.turns]
        n = len(sources)
        produces: list[set[str]] = [set() for _ in range(n)]
        enables: list[set[str]] = [set() for _ in range(n)]
        info_text: dict[str, str] = {}
        known: list[str] = []  # keys in production order
        failures = calls = uses_calls = uses_failures = 0
        for a in range(n):
            if a:
                window = known[-self.max_known :]
                picked = (
                    self.uses(actions[a], [info_text[k] for k in window], run) if window else []
                )
                if window:
                    calls += 1
                    uses_calls += 1
                if picked is None:
                    failures += 1
                    uses_failures += 1
                else:
                    enables[a] = {window[i] for i in picked}
            if a == n - 1:
                break
            calls += 1
            facts = self.facts(sources[a], run)
            if facts is None:
                failures += 1
                continue
            for fact in facts:
                key = fact_key(fact)
                produces[a].add(key)
                if key not in info_text:
                    info_text[key] = fact[:500]
                    known.append(key)
        return StateGraph(
            produces=produces,
            enables=enables,
            info_text=info_text,
            info_kind={k: "sentence" for k in info_text},
            extractor="llm",
            run=run,
            granularity="llm-facts",
            notes={
                "calls": calls,  # replies asked for (a "uses" prompt only when facts exist)
                "parse_failures": failures,
                "uses_calls": uses_calls,
                "uses_failures": uses_failures,
                "backend": getattr(self.backend, "name", ""),
            },
        )

    def extract(self, trajectory: Trajectory) -> list[StateGraph]:
        return [self.extract_run(trajectory, run) for run in range(self.runs)]
