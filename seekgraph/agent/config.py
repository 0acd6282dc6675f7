"""Settings of the agent stages: web-index, rollout (and rollout-llm), score, filter.

Each is a config section of its own (``[web-index]``, ``[rollout]``, ``[rollout-llm]``,
``[score]``, ``[filter]``); every field is also a flag of the stage's command.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from seekgraph.common.config import option
from seekgraph.common.embeddings import BACKENDS

POLICIES = ("teacher", "gold-walker", "llm", "student")
TEACHERS = ("teacher", "gold-walker")  # scripted policies of the `rollout` stage
# policies that read what no agent can know (the task's gold plan and answers, from the graph):
# every export, dataset card and report marks their rollouts, and `experiment` never uses them
PRIVILEGED_POLICIES = {"gold-walker": "reads the gold plan and answers from the graph"}


def policy_label(policy: str) -> str:
    """A policy's name as exports and reports print it: privileged ones say so."""
    return f"{policy} (privileged)" if policy in PRIVILEGED_POLICIES else policy


@dataclass(frozen=True)
class ToolSettings:
    """How the offline web's `search` and `visit` answer (shared by everything that rolls out)."""

    top_k: int = option(5, "Search results per query.", min=1, max=50)
    evidence_chars: int = option(
        3000, "Extractive visit: characters of evidence per page.", min=100
    )
    hybrid: bool = option(True, "Vector + full-text ranking when pages carry embeddings.")
    vector_weight: float = option(
        0.1, "RRF weight of the vector ranking (full-text has 1); measured in bench_web.", min=0
    )
    summary_backend: str = option(
        "", "LLM backend spec for visit summaries (empty: extractive evidence)."
    )
    observation_chars: int = option(
        0,
        "Cut every tool response to this many characters (0: whole); a small model's context "
        "budget, the same for the teacher whose trajectories train it and for its rollouts.",
        min=0,
    )


@dataclass(frozen=True)
class RolloutConfig(ToolSettings):
    """Which tasks to roll out, with which policy, under which budgets."""

    policy: str = option(
        "teacher",
        "teacher (a scripted researcher that reads only the question and its tool responses), "
        "gold-walker (privileged: walks the task's gold plan from the graph; tests and "
        "ablations only), llm (a ReAct agent on --backend) or student (the ReAct agent on a "
        "checkpoint trained here, see --student).",
        choices=POLICIES,
    )
    student: str = option(
        "",
        "policy=student: a checkpoint folder or a TrainingRun id (empty: the latest finished "
        "SFT run in the graph).",
    )
    backend: str = option(
        "transformers", "LLM spec: transformers[:PATH] | openai:URL[,URL...]#MODEL | vllm:MODEL."
    )
    kind: str = option(
        "", "Only tasks of this kind (leaper, shaper).", choices=("", "leaper", "shaper")
    )
    variant: str = option("", "Only tasks of this variant (basic, union, reverse-union, kp).")
    split: str = option("", "Only tasks of this split (train, heldout).")
    tasks: tuple[str, ...] = option((), "Only these task ids (repeatable).")
    limit: int = option(1_000_000, "At most this many tasks.", min=0)
    n: int = option(3, "Rollouts per task.", min=1)
    shard: str = option("", "Run shard i of n, as i/n (tasks split by a hash of their id).")
    concurrency: int = option(2, "Rollout threads.", min=1)
    lease_seconds: float = option(
        900.0,
        "How long a worker's claim on a rollout lasts; a killed worker's rollouts are taken "
        "over after this (set above the longest rollout).",
        min=1,
    )
    detour_rate: float = option(
        0.3,
        "Teacher, gold walker: probability of an injected (labelled) detour after each action.",
        min=0,
        max=1,
    )
    max_rounds: int = option(100, "Round budget (assistant messages).", min=1)
    max_context_tokens: int = option(32_000, "Context budget in tokens.", min=256)
    max_seconds: float = option(600.0, "Wall time per rollout.", min=1)
    max_tokens: int = option(512, "Tokens per LLM message.", min=1)
    backend_retries: int = option(
        2,
        "A rollout that ended with backend_error (an endpoint down, or answering garbage) is "
        "run again up to this many times before it is stored as failed (and counts as 0).",
        min=0,
    )
    backend_backoff: float = option(
        2.0, "Seconds before the first re-run of a backend_error rollout; doubles each time.", min=0
    )
    date: str = option(
        "",
        'The system prompt\'s "Current date" of every rollout, YYYY-MM-DD (empty: today). Pin '
        "it to get the same rollouts on another day: a run resumed after midnight otherwise "
        "mixes two dates.",
    )

    def __post_init__(self) -> None:
        if self.date:
            try:
                dt.date.fromisoformat(self.date)
            except ValueError:
                raise ValueError(f"date must be YYYY-MM-DD, not {self.date!r}") from None
        if self.lease_seconds <= self.max_seconds:
            raise ValueError(
                f"lease_seconds ({self.lease_seconds:g}) must exceed max_seconds "
                f"({self.max_seconds:g}), or another worker takes over a rollout still running"
            )


@dataclass(frozen=True)
class WebIndexConfig:
    """Page embeddings for the hybrid search (resumable; stops early when told)."""

    batch_size: int = option(256, "Pages per embedding batch.", min=1)
    max_pages: int = option(0, "Stop after this many pages (0: no limit; resume later).", min=0)
    max_seconds: float = option(0.0, "Stop after this long (0: no limit; resume later).", min=0)
    max_tokens: int = option(
        0,
        "Word pieces embedded per page (0: the model's 256; 128: 1.3x as fast, recall lower).",
        min=0,
    )
    backend: str = option(
        "onnx-int8",
        "Runtime of the page embeddings: onnx-int8 (MiniLM's weights in int8 on ONNX Runtime, "
        "made once and cached; faster on CPU, as good at retrieval in bench_embed) or torch. "
        "Searches embed their queries with the pages' backend (recorded on each page); a build "
        "is never resumed with another.",
        choices=BACKENDS,
    )


@dataclass(frozen=True)
class ScoreConfig:
    policy: str = option("", "Only rollouts of this policy.", choices=("", *POLICIES))
    rescore: bool = option(False, "Also rollouts that already have scores.")
    shard: str = option("", "Score shard i of n (by rollout id), as i/n.")


@dataclass(frozen=True)
class FilterConfig:
    """WebLeaper's filter: keep trajectories with ISR > alpha and ISE > beta."""

    alpha: float = option(0.3, "Keep only ISR > alpha (coverage).", min=0, max=1)
    beta: float = option(0.1, "Keep only ISE > beta (efficiency).", min=0)
    require_answer: bool = option(True, "Reject trajectories that did not end with an answer.")
    policy: str = option("", "Only rollouts of this policy.", choices=("", *POLICIES))
    export: bool = option(True, "Write the kept trajectories to <out>/trajectories.jsonl.")
    export_all: bool = option(False, "Export rejected trajectories too.")
