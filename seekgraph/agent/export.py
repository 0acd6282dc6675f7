"""Export trajectories as Tongyi-DeepResearch JSONL: `{question, answer, messages, prediction,
termination}` per line (plus the structured gold `answer_records`, the flat `answer_entities`,
`rollout_id`, the `policy`, whether it was `privileged` (the gold walker, which reads the gold
plan) and the scores, which their scripts ignore)."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import neo4j

from seekgraph.agent.config import PRIVILEGED_POLICIES
from seekgraph.agent.store import read_trajectories
from seekgraph.common.answers import format_records, gold_records
from seekgraph.graphdb import cypher


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
            gold = gold_records(r["answer_json"])
            record = {
                "question": r["question"],
                "answer": format_records(gold),
                "answer_records": [asdict(g) for g in gold],
                "answer_entities": [g.name for g in gold],
                "messages": stored[r["rollout_id"]].trajectory.messages(),
                "prediction": r["prediction"] or "",
                "termination": r["termination"],
                "rollout_id": r["rollout_id"],
                "policy": r["policy"],
                "privileged": r["policy"] in PRIVILEGED_POLICIES,
                "isr": r["isr"],
                "ise": r["ise"],
                "f1": r["f1"],
                "fae": r["fae"],
            }
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return len(rows)
