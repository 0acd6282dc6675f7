"""Export trajectories as Tongyi-DeepResearch JSONL: `{question, answer, messages, prediction,
termination}` per line (plus `rollout_id` and the scores, which their scripts ignore)."""

from __future__ import annotations

import json
from pathlib import Path

import neo4j

from agent.metrics import gold_items
from agent.store import read_trajectories
from graphdb import cypher


def export_jsonl(
    driver: neo4j.Driver,
    database: str | None,
    path: Path,
    *,
    kept_only: bool = True,
    policy: str | None = None,
) -> int:
    """Write the JSONL file; returns the number of lines."""
    rows = cypher.read(
        driver,
        "agent/find_rollouts_for_export",
        database=database,
        policy=policy,
        kept_only=kept_only,
    )
    stored = read_trajectories(driver, database, [r["rollout_id"] for r in rows])
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        for r in rows:
            record = {
                "question": r["question"],
                "answer": "\n".join(gold_items(r["answer_json"])),
                "messages": stored[r["rollout_id"]].trajectory.messages(),
                "prediction": r["prediction"] or "",
                "termination": r["termination"],
                "rollout_id": r["rollout_id"],
                "isr": r["isr"],
                "ise": r["ise"],
                "f1": r["f1"],
                "fae": r["fae"],
            }
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return len(rows)
