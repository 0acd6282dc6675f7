"""Answers proven by the graph: a query derived from each task's structure recomputes its sets.

The generators build tasks from the tree layer (`Tree`, `HAS_ANCHOR`) in Python; each proof
goes back to the source rows (`Table`-`Row`-`ANCHOR`, `FACT`) in Cypher, using only the task's
spec (tables, relations, clues, pivot). A task whose recomputed set differs is rejected with
reason ``answer_mismatch`` (or ``clues_not_unique`` when the clues no longer single out the
bridge anchor). Tasks are changed in place; the function returns how many were rejected.
"""

from __future__ import annotations

import neo4j

from seekgraph.graphdb import cypher
from seekgraph.synth.leaper.common import PLACE_RELATIONS, TaskRecord


def _ids(task: TaskRecord, role: str) -> set[str]:
    return {t.id for t in task.targets if t.role == role}


def _answer_ids(task: TaskRecord) -> set[str]:
    return {a["entity_id"] for a in task.answers}


def prove_basic(driver: neo4j.Driver, database: str | None, tasks: list[TaskRecord]) -> int:
    """Anchors = the table's row anchors; attributes = their facts for the task's relations."""
    if not tasks:
        return 0
    rows = cypher.read(
        driver,
        "leaper/prove_basic_targets",
        database=database,
        tasks=[{"task_id": t.task_id, **t.spec} for t in tasks],
    )
    proven = {r["task_id"]: r for r in rows}
    rejected = 0
    for task in tasks:
        got = proven.get(task.task_id)
        if (
            got is None
            or set(got["answers"]) != _answer_ids(task)
            or set(got["answers"]) != _ids(task, "anchor")
            or set(got["attributes"]) != _ids(task, "attribute")
        ):
            task.reject("answer_mismatch")
            rejected += 1
    return rejected


def prove_union(driver: neo4j.Driver, database: str | None, tasks: list[TaskRecord]) -> int:
    """Answers = entities anchoring a row in every table; every table states every relation."""
    if not tasks:
        return 0
    rows = cypher.read(
        driver,
        "leaper/prove_union_answers",
        database=database,
        tasks=[
            {
                "task_id": t.task_id,
                "table_ids": t.spec["table_ids"],
                "relations": t.spec["relations"],
                "asked": t.spec.get("asked", t.spec["relations"]),
                "one_series": bool(t.spec.get("one_series")),
            }
            for t in tasks
        ],
        places=list(PLACE_RELATIONS),
    )
    proven = {r["task_id"]: r for r in rows}
    rejected = 0
    for task in tasks:
        got = proven.get(task.task_id)
        if (
            got is None
            or not got["shares"]
            or set(got["answers"]) != _answer_ids(task)
            or set(got["answers"]) != _ids(task, "answer")
            or set(got["attributes"]) != _ids(task, "attribute")
        ):
            task.reject("answer_mismatch")
            rejected += 1
    return rejected


def prove_reverse(driver: neo4j.Driver, database: str | None, tasks: list[TaskRecord]) -> int:
    """Clues -> one bridge anchor -> its pivot -> the union's other anchors sharing the pivot."""
    if not tasks:
        return 0
    rows = cypher.read(
        driver,
        "leaper/prove_reverse_answers",
        database=database,
        tasks=[
            {
                "task_id": t.task_id,
                "table_ids": t.spec["table_ids"],
                "clues": t.spec["clues"],
                "pivot_relation": t.spec["pivot_relation"],
                "pivot_id": t.spec["pivot_id"],
            }
            for t in tasks
        ],
    )
    proven = {r["task_id"]: r for r in rows}
    rejected = 0
    for task in tasks:
        got = proven.get(task.task_id)
        if got is None or got["bridge"] != [task.spec["bridge"]]:
            task.reject("clues_not_unique")
        elif not got["bridge_has_pivot"] or set(got["answers"]) != _answer_ids(task):
            task.reject("answer_mismatch")
        else:
            continue
        rejected += 1
    return rejected
