"""What the prune stage records: one trajectory's outcome, the run's result, and the writes a
chunk queues for its end (statuses last: they are the resume marker)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from seekgraph.graphdb.stages import StageReport


@dataclass
class PruneOutcome:
    """What happened to one trajectory (plain data for the summary and the benchmark)."""

    rollout_id: str
    status: str  # pruned | minimal | unpruned
    reason: str
    n_turns: int = 0
    kept: list[int] = field(default_factory=list)  # turn indexes (1-based; the answer included)
    removed: list[int] = field(default_factory=list)
    detours: list[int] = field(default_factory=list)  # turn indexes of recorded detours
    detour_kinds: dict[int, str] = field(default_factory=dict)
    tool_calls_before: int = 0
    tool_calls_after: int = 0
    tokens_before: int = 0
    tokens_after: int = 0
    answer_keys: list[str] = field(default_factory=list)
    answer_kept: bool = True
    costs: list[tuple[int | None, int | None]] = field(default_factory=list)  # (search, exact)
    necessary_sets: list[list[int] | None] = field(default_factory=list)
    rewrite_status: str = ""
    rewritten: int = 0


@dataclass
class PruneResult:
    report: StageReport
    outcomes: list[PruneOutcome]
    seconds_graphs: float = 0.0  # build + extraction + write + search (no rewriting)
    seconds_rewrite: float = 0.0
    graphs_unchanged: int = 0  # state graphs already stored as built (not written again)
    rewrite_calls: int = 0  # pruned trajectories whose thoughts went to the rewriter


def construction_agreement(outcomes: list[PruneOutcome]) -> dict[tuple[int, int], tuple[int, int]]:
    """Per pair of constructions (by run): on how many trajectories both found a necessary set
    and how many of those sets were the same."""
    out: dict[tuple[int, int], tuple[int, int]] = {}
    for o in outcomes:
        sets = o.necessary_sets
        for i in range(len(sets)):
            for j in range(i + 1, len(sets)):
                if sets[i] is None or sets[j] is None:
                    continue
                same, both = out.get((i, j), (0, 0))
                out[(i, j)] = (same + (sets[i] == sets[j]), both + 1)
    return out


@dataclass
class ChunkWrites:
    """What one chunk writes at its end: statuses (the resume marker), necessary sets of the
    stored graphs, and the pruned rollouts."""

    statuses: list[dict[str, Any]] = field(default_factory=list)
    necessary: list[dict[str, Any]] = field(default_factory=list)
    pruned: list[dict[str, Any]] = field(default_factory=list)

    def unpruned(self, report: StageReport, rollout_id: str, reason: str, detail: str) -> None:
        report.reject(rollout_id, reason, detail)
        self.statuses.append(
            {"rollout_id": rollout_id, "status": "unpruned", "detail": f"{reason}: {detail}"}
        )
