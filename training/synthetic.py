"""Synthetic trajectories in the agent's exact shape, for tests and benchmarks (never training).

`trajectory_rows` makes Task + Rollout rows with Tongyi messages (system, question, assistant
``<think>…</think>\\n<tool_call>…</tool_call>``, user ``<tool_response>…</tool_response>``, …,
assistant ``<think>…</think>\\n<answer>…</answer>``), metrics, and for a share of them a pruned
twin (fewer rounds, `pruned: true`, `original_id`) as WebClipper writes them.
"""

from __future__ import annotations

import json
import random
from typing import Any

import neo4j

from graphdb import cypher

VARIANTS = ("basic", "union", "reverse-union", "kp")
SYSTEM = (
    "You are a deep research assistant. Call search or visit inside <tool_call></tool_call> "
    "and give the final answer inside <answer></answer>, one item per line."
)


def messages(
    question: str, answers: list[str], rounds: int, rng: random.Random
) -> list[dict[str, str]]:
    """A Tongyi-format trajectory with `rounds - 1` tool calls and a final answer."""
    out = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": question}]
    for i in range(rounds - 1):
        if i % 2 == 0:
            call = {"name": "search", "arguments": {"query": [f"{question[:40]} part {i}"]}}
            response = (
                f"A Google search for '{question[:30]}' found {rng.randint(3, 9)} results:\n"
                f"1. [{answers[i % len(answers)]}](/wiki/{answers[i % len(answers)]})\n"
                f"   A page about {answers[i % len(answers)]}."
            )
        else:
            url = f"/wiki/{answers[i % len(answers)].replace(' ', '_')}"
            call = {"name": "visit", "arguments": {"url": url, "goal": "find the members"}}
            response = (
                f"The useful information in {url} for user goal find the members:\n"
                f"Evidence: {answers[i % len(answers)]} is listed in the table."
            )
        out.append(
            {
                "role": "assistant",
                "content": f"<think>I need to look for step {i}.</think>\n<tool_call>\n"
                f"{json.dumps(call)}\n</tool_call>",
            }
        )
        out.append({"role": "user", "content": f"<tool_response>\n{response}\n</tool_response>"})
    out.append(
        {
            "role": "assistant",
            "content": "<think>I have found everything.</think>\n"
            "<answer>" + "\n".join(answers) + "</answer>",
        }
    )
    return out


def trajectory_rows(
    n_tasks: int,
    *,
    per_task: int = 1,
    pruned_share: float = 0.5,
    heldout_share: float = 0.0,
    seed: int = 0,
    prefix: str = "syn",
) -> list[dict[str, Any]]:
    """Rows for `training/merge_synthetic_rollouts` (originals first, then pruned twins)."""
    rng = random.Random(seed)
    originals, pruned = [], []
    for t in range(n_tasks):
        variant = VARIANTS[t % len(VARIANTS)]
        answers = [f"Entity {t}-{k}" for k in range(rng.randint(1, 3))]
        question = f"Which entities of group {t} ({variant}) match the clues?"
        split = "heldout" if rng.random() < heldout_share else "train"
        for i in range(per_task):
            rounds = rng.randint(2, 8)
            acc = 1.0 if rng.random() < 0.8 else 0.0
            row: dict[str, Any] = {
                "task_id": f"{prefix}-task-{t}",
                "kind": "shaper" if variant == "kp" else "leaper",
                "variant": variant,
                "split": split,
                "question": question,
                "answer_json": json.dumps(answers),
                "rollout_id": f"{prefix}-task-{t}/teacher/teacher-v1/{i}",
                "policy": "teacher",
                "model": "teacher-v1",
                "termination": "answer",
                "prediction": "\n".join(answers),
                "rounds": rounds,
                "tokens": 100 * rounds,
                "pruned": False,
                "kept": rng.random() < 0.85,
                "isr": round(rng.uniform(0.2, 1.0), 3),
                "ise": round(rng.uniform(0.05, 0.8), 3),
                "f1": acc,
                "accuracy": acc,
                "original_id": None,
                "messages_json": json.dumps(messages(question, answers, rounds, rng)),
            }
            originals.append(row)
            if rounds > 2 and rng.random() < pruned_share:
                short = max(2, rounds - rng.randint(1, rounds - 2))
                pruned.append(
                    {
                        **row,
                        "rollout_id": f"{row['rollout_id']}/pruned",
                        "original_id": row["rollout_id"],
                        "pruned": True,
                        "rounds": short,
                        "tokens": 100 * short,
                        "messages_json": json.dumps(messages(question, answers, short, rng)),
                    }
                )
    return originals + pruned


def write_rows(
    driver: neo4j.Driver, database: str | None, rows: list[dict[str, Any]], batch_size: int = 1000
) -> int:
    """Originals before pruned twins, so PRUNED_FROM finds its target."""
    first = [r for r in rows if not r["pruned"]]
    second = [r for r in rows if r["pruned"]]
    n = cypher.run_batches(
        driver, "training/merge_synthetic_rollouts", first, database=database, batch_size=batch_size
    )
    return n + cypher.run_batches(
        driver,
        "training/merge_synthetic_rollouts",
        second,
        database=database,
        batch_size=batch_size,
    )
