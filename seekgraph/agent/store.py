"""Rollouts in the graph: the ONE place that writes a trajectory and reads it back.

A trajectory is stored once, in the wire format's own pieces: the `Rollout` node holds the
question and the system prompt's date; one `Step` node per turn holds the assistant message
(`content`) and the tool response that answered it (`response`), verbatim, plus what the
rollout measured (`tokens`, `detour_kind`) and, for quick queries, the parsed `kind` and `tool`.
`read_trajectories` rebuilds `seekgraph.common.wire.Trajectory` objects from them; every reader (scoring,
pruning, datasets, exports, pictures) goes through it, so nothing parses message text twice.

A pruned trajectory is a `Rollout {pruned: true}` with Steps of its own (`source_index` names
the original turn, `rewritten` says whether its thought was rewritten).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import neo4j

from seekgraph.agent.metrics import Target, revealed
from seekgraph.agent.trajectory import StepRecord
from seekgraph.common.wire import Trajectory, Turn
from seekgraph.graphdb import cypher


@dataclass
class StoredRollout:
    """A rollout read back: its trajectory and what is known about it."""

    rollout_id: str
    task_id: str
    trajectory: Trajectory
    pruned: bool = False
    original_id: str | None = None
    detours: dict[int, str] = field(default_factory=dict)  # turn index -> detour kind
    rewritten: list[int] = field(default_factory=list)  # turns whose thought was rewritten
    props: dict[str, Any] = field(default_factory=dict)


def step_rows(
    rollout_id: str,
    trajectory: Trajectory,
    steps: Sequence[StepRecord] | None = None,
    *,
    rewritten: Mapping[int, str] | None = None,
) -> list[dict[str, Any]]:
    """The `agent/merge_steps` rows of a trajectory (`steps`: what each turn measured;
    `rewritten`: turn index -> how its thought was rewritten, ``llm`` or ``deterministic``)."""
    rewritten = rewritten or {}
    records = list(steps) if steps is not None else [StepRecord()] * len(trajectory.turns)
    rows = []
    for k, (turn, record) in enumerate(zip(trajectory.turns, records, strict=True)):
        rows.append(
            {
                "rollout_id": rollout_id,
                "step_id": f"{rollout_id}#{k}",
                "index": k,
                "source_index": turn.index - 1,
                "content": turn.content,
                "response": turn.response,
                "kind": turn.kind,
                "tool": turn.tool,
                "tokens": record.tokens,
                "detour_kind": record.detour_kind,
                "tool_error": record.error,
                "rewritten": turn.index in rewritten,
                "rewrite": rewritten.get(turn.index),
                "previous": f"{rollout_id}#{k - 1}" if k else None,
            }
        )
    return rows


def write_rollout(
    tx: neo4j.ManagedTransaction,
    rollout: dict[str, Any],
    trajectory: Trajectory,
    steps: Sequence[StepRecord],
    targets: Sequence[Target],
) -> None:
    """One finished rollout in one transaction: the node, its steps (replacing any left by a
    killed attempt), the pages they saw and the targets what the web returned to them revealed
    (`seekgraph.agent.metrics.revealed`)."""
    rid = rollout["rollout_id"]
    saw, shown = [], []
    per_step = revealed(trajectory.turns, targets)  # what the web returned, not the echoes
    for k, (record, found) in enumerate(zip(steps, per_step, strict=True)):
        sid = f"{rid}#{k}"
        saw += [{"step_id": sid, "page_id": p} for p in dict.fromkeys(record.pages)]
        shown += [{"step_id": sid, "target_id": t} for t in sorted(found)]
    tx.run(cypher.query("agent/merge_rollouts"), rows=[rollout]).consume()
    tx.run(cypher.query("agent/delete_rollout_steps"), rollout_ids=[rid]).consume()
    tx.run(cypher.query("agent/merge_steps"), rows=step_rows(rid, trajectory, steps)).consume()
    tx.run(cypher.query("agent/merge_step_pages"), rows=saw).consume()
    tx.run(cypher.query("agent/merge_step_revealed"), rows=shown).consume()


def read_trajectories(
    driver: neo4j.Driver, database: str | None, rollout_ids: Sequence[str]
) -> dict[str, StoredRollout]:
    """The stored rollouts of `rollout_ids` (missing ids are absent from the result)."""
    out: dict[str, StoredRollout] = {}
    for batch in cypher.batched(list(rollout_ids), 500):
        for row in cypher.read(
            driver, "agent/find_rollout_turns", database=database, rollout_ids=batch
        ):
            steps = sorted(row["steps"], key=lambda s: s["index"])
            turns = tuple(
                Turn(int(s["source_index"]) + 1, s["content"] or "", s["response"]) for s in steps
            )
            out[row["rollout_id"]] = StoredRollout(
                rollout_id=row["rollout_id"],
                task_id=row["task_id"] or "",
                trajectory=Trajectory(row["question"] or "", turns, row["date"] or ""),
                pruned=bool(row["pruned"]),
                original_id=row["original_id"],
                detours={
                    int(s["source_index"]) + 1: s["detour_kind"] for s in steps if s["detour_kind"]
                },
                rewritten=[int(s["source_index"]) + 1 for s in steps if s["rewritten"]],
                props=dict(row["props"] or {}),
            )
    return out
