"""`seekgraph export tasks`: kept WebLeaper tasks as JSONL, one task per line.

Each line: ``{id, variant, question, question_source, answers, answer_entities, answer_text,
targets, tree, provenance, split}``: `answers` are the gold records (each entity with the
values of every attribute the question asks, `seekgraph.common.answers`), `answer_entities` the flat
list of their names, `answer_text` the records as an ``<answer>`` would write them, `targets`
lists R with roles and `provenance` names the trees/bicliques/tasks the task was built from and
their tables.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

import neo4j

from seekgraph.common.answers import format_records, gold_records
from seekgraph.graphdb import cypher


def iter_tasks(
    driver: neo4j.Driver,
    database: str | None,
    variants: list[str] | None = None,
    split: str | None = None,
    batch_size: int = 500,
) -> Iterator[dict[str, Any]]:
    """Kept leaper tasks as export records, ordered by id."""
    tasks = cypher.read(driver, "leaper/find_leaper_tasks", database=database, variants=variants)
    if split is not None:
        tasks = [t for t in tasks if t["split"] == split]
    for batch in cypher.batched(tasks, batch_size):
        extra = {
            r["task_id"]: r
            for r in cypher.read(
                driver,
                "leaper/find_task_targets",
                database=database,
                task_ids=[t["task_id"] for t in batch],
            )
        }
        for t in batch:
            more = extra.get(t["task_id"], {})
            gold = gold_records(t["answer_json"])
            yield {
                "id": t["task_id"],
                "variant": t["variant"],
                "question": t["question"],
                "question_source": t.get("question_source") or "template",
                "answers": json.loads(t["answer_json"] or "[]"),
                "answer_entities": [g.name for g in gold],
                "answer_text": format_records(gold),
                "targets": more.get("targets", []),
                "tree": json.loads(t["tree_json"] or "{}"),
                "provenance": {
                    "built_from": sorted(more.get("built_from", [])),
                    "tables": sorted(more.get("tables", [])),
                },
                "split": t["split"],
            }


def write_jsonl(records: Iterator[dict[str, Any]], out: TextIO) -> int:
    n = 0
    for record in records:
        out.write(json.dumps(record, ensure_ascii=False) + "\n")
        n += 1
    return n


def export_tasks(
    driver: neo4j.Driver,
    database: str | None,
    path: Path,
    variants: list[str] | None = None,
    split: str | None = None,
) -> int:
    """Write the JSONL file at `path`; returns the number of tasks written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        return write_jsonl(iter_tasks(driver, database, variants, split), out)
