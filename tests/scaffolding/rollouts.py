"""Synthetic trajectories written through the library's own rollout store (tests and benches).

`trajectory_rows` makes task + rollout records with wire-format trajectories (search and visit
calls with their responses, then the answer), metrics, and for a share of them a pruned twin
(fewer turns), written by `write_rows` exactly as the rollout and prune stages write theirs.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import neo4j

from seekgraph.agent.store import step_rows, write_rollout
from seekgraph.agent.trajectory import StepRecord
from seekgraph.common.wire import Trajectory, assistant_text, tool_response_text
from seekgraph.graphdb import cypher
from seekgraph.training.stategraph.store import write_pruned

VARIANTS = ("basic", "union", "reverse-union", "kp")
DATE = "2026-01-01"
MERGE_TASKS = """
UNWIND $rows AS row
MERGE (t:Task {task_id: row.task_id})
SET t.kind = row.kind, t.variant = row.variant, t.split = row.split, t.question = row.question,
    t.answer_json = row.answer_json, t.status = 'kept'
"""


def trajectory(question: str, answers: list[str], rounds: int, rng: random.Random) -> Trajectory:
    """A wire-format trajectory with `rounds - 1` tool calls and a final answer."""
    out = Trajectory(question, date=DATE)
    for i in range(rounds - 1):
        name = answers[i % len(answers)]
        call: tuple[str, dict[str, Any]]
        if i % 2 == 0:
            call = ("search", {"query": [f"{question[:40]} part {i}"]})
            response = (
                f"A Google search for '{question[:30]}' found {rng.randint(3, 9)} results:\n"
                f"1. [{name}](/wiki/{name})\n   A page about {name}."
            )
        else:
            url = f"/wiki/{name.replace(' ', '_')}"
            call = ("visit", {"url": url, "goal": "find the members"})
            response = (
                f"The useful information in {url} for user goal find the members:\n"
                f"Evidence: {name} is listed in the table."
            )
        content = assistant_text(f"I need to look for step {i}.", call=call)
        out = out.with_turn(content, tool_response_text(response))
    return out.with_turn(assistant_text("I have found everything.", answer="\n".join(answers)))


def messages(
    question: str, answers: list[str], rounds: int, rng: random.Random
) -> list[dict[str, str]]:
    """`trajectory(...)` as chat messages."""
    return trajectory(question, answers, rounds, rng).messages()


@dataclass
class SyntheticRollout:
    task: dict[str, Any]
    rollout_id: str
    trajectory: Trajectory
    scores: dict[str, Any]
    kept: bool
    original_id: str | None = None
    props: dict[str, Any] = field(default_factory=dict)

    @property
    def pruned(self) -> bool:
        return self.original_id is not None

    def __getitem__(self, key: str) -> Any:  # row-like access for tests
        row = {
            **self.task,
            **self.scores,
            "rollout_id": self.rollout_id,
            "kept": self.kept,
            "pruned": self.pruned,
            "original_id": self.original_id,
            "rounds": self.trajectory.rounds,
        }
        return row[key]


def trajectory_rows(
    n_tasks: int,
    *,
    per_task: int = 1,
    pruned_share: float = 0.5,
    heldout_share: float = 0.0,
    seed: int = 0,
    prefix: str = "syn",
) -> list[SyntheticRollout]:
    """Originals first, then pruned twins."""
    rng = random.Random(seed)
    originals, pruned = [], []
    for t in range(n_tasks):
        variant = VARIANTS[t % len(VARIANTS)]
        answers = [f"Entity {t}-{k}" for k in range(rng.randint(1, 3))]
        question = f"Which entities of group {t} ({variant}) match the clues?"
        task = {
            "task_id": f"{prefix}-task-{t}",
            "kind": "shaper" if variant == "kp" else "leaper",
            "variant": variant,
            "split": "heldout" if rng.random() < heldout_share else "train",
            "question": question,
            "answer_json": json.dumps(answers),
        }
        for i in range(per_task):
            rounds = rng.randint(2, 8)
            acc = 1.0 if rng.random() < 0.8 else 0.0
            scores = {
                "isr": round(rng.uniform(0.2, 1.0), 3),
                "ise": round(rng.uniform(0.05, 0.8), 3),
                "f1": acc,
                "accuracy": acc,
                "precision": acc,
                "recall": acc,
                "fae": acc,
                "n_targets": len(answers),
                "n_found": len(answers),
                "n_found_visit": 0,
                "actions": rounds - 1,
            }
            original = SyntheticRollout(
                task,
                f"{task['task_id']}/teacher/teacher-v1/{i}",
                trajectory(question, answers, rounds, rng),
                scores,
                kept=rng.random() < 0.85,
            )
            originals.append(original)
            if rounds > 2 and rng.random() < pruned_share:
                short = max(2, rounds - rng.randint(1, rounds - 2))
                pruned.append(
                    SyntheticRollout(
                        task,
                        f"{original.rollout_id}/pruned",
                        trajectory(question, answers, short, rng),
                        scores,
                        kept=original.kept,
                        original_id=original.rollout_id,
                    )
                )
    return originals + pruned


def write_rows(driver: neo4j.Driver, database: str | None, rows: list[SyntheticRollout]) -> int:
    """Tasks, originals (agent.store), their scores and verdicts, then the pruned twins."""
    tasks = {r.task["task_id"]: r.task for r in rows}
    driver.execute_query(MERGE_TASKS, rows=list(tasks.values()), database_=database)
    originals = [r for r in rows if not r.pruned]
    for r in originals:
        store_trajectory(
            driver,
            database,
            r.rollout_id,
            r.task["task_id"],
            r.trajectory,
            kept=r.kept,
            model="teacher-v1",
        )
    cypher.run_batches(
        driver,
        "agent/set_rollout_scores",
        [{"rollout_id": r.rollout_id, **r.scores} for r in originals],
        database=database,
    )
    pruned = [r for r in rows if r.pruned]
    write_pruned(
        driver,
        database,
        [
            {
                "rollout_id": r.rollout_id,
                "original_id": r.original_id,
                "graph_ids": [],
                "props": {
                    "question": r.trajectory.question,
                    "date": r.trajectory.date,
                    "rounds": r.trajectory.rounds,
                    "tool_calls": r.trajectory.tool_calls,
                    "tokens": r.trajectory.tokens(),
                },
                "steps": step_rows(r.rollout_id, r.trajectory),
            }
            for r in pruned
        ],
    )
    return len(rows)


def store_trajectory(
    driver: neo4j.Driver,
    database: str | None,
    rollout_id: str,
    task_id: str,
    trajectory: Trajectory,
    *,
    detours: dict[int, str] | None = None,
    pages: list[tuple[str, ...]] | None = None,
    kept: bool | None = None,
    policy: str = "teacher",
    model: str = "teacher-d0.3",
) -> str:
    """One rollout of an existing task through `seekgraph.agent.store` (what the rollout stage writes);
    `detours`: turn index -> kind; `pages`: per turn, the pages its tool saw."""
    n = len(trajectory.turns)
    steps = [
        StepRecord(
            pages=(pages[k] if pages and k < len(pages) else ()),
            detour_kind=(detours or {}).get(k + 1, ""),
        )
        for k in range(n)
    ]
    row = {
        "rollout_id": rollout_id,
        "task_id": task_id,
        "policy": policy,
        "model": model,
        "index": 0,
        "termination": "answer" if trajectory.answer else "format_error",
        "prediction": trajectory.answer,
        "question": trajectory.question,
        "date": trajectory.date,
        "rounds": trajectory.rounds,
        "tool_calls": trajectory.tool_calls,
        "tokens": trajectory.tokens(),
        "prompt_tokens": 0,
        "completion_tokens": 0,
        "error": None,
        "seconds": 0.0,
        "max_rounds": 100,
        "shard": "",
    }
    with driver.session(database=database) as session:
        session.execute_write(write_rollout, row, trajectory, steps, [])
    if kept is not None:
        cypher.run_batches(
            driver,
            "agent/set_rollout_filter",
            [{"rollout_id": rollout_id, "kept": kept, "reject_reason": None}],
            database=database,
        )
    return rollout_id
