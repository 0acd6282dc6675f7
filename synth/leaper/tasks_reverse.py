"""Reverse-Union tasks: a fuzzed bridge anchor, a pivot attribute, then the union's search.

Definition: take a kept Union task over tables ``A`` with answer set ``I`` (entities anchoring a
row in every table of ``A``). Pick a bridge ``b ∈ I``.

1. *Deductive fuzz.* Choose clues: facts ``(relation, value)`` of ``b`` (from any table, never
   the pivot relation), most selective first, as few as make ``b`` the only entity in the whole
   graph holding all of them (at most `max_clues`). The query ``leaper/find_clue_holders``
   proves the uniqueness; otherwise the candidate is rejected (``clues_not_unique``).
2. *Pivot.* A value ``p`` of ``b`` under a shared relation ``r`` of the union, from a table of
   ``A``.
3. *Answers* = ``{e ∈ I \\ {b} : e has r = p in a table of A}``: the other entities meeting the
   union condition that share the pivot. Empty: ``empty_answer``; ``|R| > max_targets``:
   ``too_large``.

Targets R = answers (``answer``) ∪ {b} and the per-tree anchors with r = p (``anchor``) ∪ {p}
(``attribute``). Pivot and clues also hang off the task as ``PIVOT`` and ``CLUE`` edges.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import neo4j

from graphdb import cypher
from graphdb.ids import stable_id
from graphdb.stages import StageReport
from synth.leaper.common import (
    LeaperConfig,
    Target,
    TaskRecord,
    existing_task_ids,
    record_tasks,
)
from synth.leaper.proofs import prove_reverse
from synth.leaper.questions import paraphrase, reverse_question

if TYPE_CHECKING:
    from common.llm.base import LLMBackend

STAGE = "leaper-reverse"


def choose_clues(
    driver: neo4j.Driver,
    database: str | None,
    bridge: str,
    candidates: list[dict[str, Any]],
    max_clues: int,
) -> list[dict[str, Any]] | None:
    """The shortest prefix (by selectivity) of `candidates` that only `bridge` holds, or None."""
    if not candidates:
        return None
    keyed = [{"relation": c["relation"], "kind": c["kind"], "id": c["id"]} for c in candidates]
    counts = {
        (r["relation"], r["id"]): r["holders"]
        for r in cypher.read(driver, "leaper/count_fact_holders", database=database, clues=keyed)
    }
    ranked = sorted(
        candidates, key=lambda c: (counts.get((c["relation"], c["id"]), 0), c["relation"], c["id"])
    )
    chosen: list[dict[str, Any]] = []
    for cand in ranked:
        if any(c["relation"] == cand["relation"] for c in chosen):
            continue
        chosen.append(cand)
        holders = cypher.read(
            driver,
            "leaper/find_clue_holders",
            database=database,
            limit=2,
            clues=[{"relation": c["relation"], "kind": c["kind"], "id": c["id"]} for c in chosen],
        )
        if holders and holders[0]["holders"] == [bridge]:
            return chosen
        if len(chosen) >= max_clues:
            return None
    return None


@dataclass
class _Union:
    """A kept Union task, read back: its structure, answers and their facts in its tables."""

    task_id: str
    tree: dict[str, Any]
    table_ids: list[str]
    names: dict[str, str]  # answer entity id -> name
    facts: list[dict[str, Any]]
    holders: dict[tuple[str, str], set[str]]  # (relation, value id) -> answers holding it


def reverse_tasks_for(
    driver: neo4j.Driver,
    database: str | None,
    union: dict[str, Any],
    config: LeaperConfig,
    backend: LLMBackend | None = None,
) -> list[TaskRecord]:
    """Up to `bridges_per_union` Reverse-Union candidates from one kept Union task."""
    spec = json.loads(union["spec_json"])
    names = {a["entity_id"]: a["name"] for a in json.loads(union["answer_json"])}
    facts = cypher.read(
        driver,
        "leaper/find_entity_facts",
        database=database,
        entity_ids=sorted(names),
        table_ids=spec["table_ids"],
        relations=spec["relations"],
    )
    holders: dict[tuple[str, str], set[str]] = {}
    for f in facts:
        holders.setdefault((f["relation"], f["id"]), set()).add(f["entity_id"])
    context = _Union(
        union["task_id"], json.loads(union["tree_json"]), spec["table_ids"], names, facts, holders
    )
    return [
        _bridge_task(driver, database, context, bridge, config, backend)
        for bridge in sorted(names)[: config.bridges_per_union]
    ]


def _bridge_task(
    driver: neo4j.Driver,
    database: str | None,
    union: _Union,
    bridge: str,
    config: LeaperConfig,
    backend: LLMBackend | None,
) -> TaskRecord:
    """The candidate of one bridge anchor: its most shared pivot, its clues, the answers."""
    task_id = stable_id("leaper-reverse", union.task_id, bridge)
    pivots = sorted(
        {
            (f["relation"], f["kind"], f["id"], f["name"])
            for f in union.facts
            if f["entity_id"] == bridge
        },
        key=lambda p: (-len(union.holders[(p[0], p[2])]), p[0], p[2]),
    )
    if not pivots:
        base = TaskRecord(
            task_id=task_id,
            variant="reverse-union",
            question="",
            answers=[],
            targets=[],
            tree={},
            spec={"bridge": bridge},
            trees=union.tree["trees"],
            tasks=[union.task_id],
        )
        base.reject("no_pivot")
        return base
    relation, kind, pivot_id, pivot_name = pivots[0]
    own = cypher.read(
        driver,
        "leaper/find_entity_facts",
        database=database,
        entity_ids=[bridge],
        table_ids=None,
        relations=None,
    )
    candidates = [f for f in own if f["relation"] != relation]
    clues = choose_clues(driver, database, bridge, candidates, config.max_clues)
    task = _reverse_record(
        task_id, union, bridge, (relation, kind, pivot_id, pivot_name), clues, backend
    )
    if clues is None:
        task.reject("clues_not_unique")
    elif not task.answers:
        task.reject("empty_answer")
    elif len({t.id for t in task.targets}) > config.max_targets:
        task.reject("too_large")
    return task


def _reverse_record(
    task_id: str,
    union: _Union,
    bridge: str,
    pivot: tuple[str, str, str, str],
    clues: list[dict[str, Any]] | None,
    backend: LLMBackend | None,
) -> TaskRecord:
    """The task record: question, answers (the union's other anchors sharing the pivot), R."""
    relation, kind, pivot_id, pivot_name = pivot
    tree, names = union.tree, union.names
    matched = sorted(union.holders[(relation, pivot_id)] - {bridge})
    anchors_with_pivot = sorted(
        {e for ids in tree["anchors"].values() for e in ids}
        & (union.holders[(relation, pivot_id)] | {bridge})
    )
    chosen = clues or []
    question = ""
    if clues:
        described = [(c["relation"], c["name"]) for c in chosen]
        question = paraphrase(reverse_question(described, relation, tree["roots"]), backend)
    return TaskRecord(
        task_id=task_id,
        variant="reverse-union",
        question=question,
        answers=[{"name": names[e], "entity_id": e} for e in matched],
        targets=[Target("answer", "entity", e, names[e]) for e in matched]
        + [Target("anchor", "entity", e, names.get(e, e)) for e in anchors_with_pivot]
        + [Target("attribute", kind, pivot_id, pivot_name)],
        tree={
            "roots": tree["roots"],
            "trees": tree["trees"],
            "bridge": bridge,
            "pivot": {"relation": relation, "id": pivot_id, "name": pivot_name},
            "clues": [
                {"relation": c["relation"], "id": c["id"], "name": c["name"]} for c in chosen
            ],
        },
        spec={
            "bridge": bridge,
            "table_ids": union.table_ids,
            "pivot_relation": relation,
            "pivot_id": pivot_id,
            "clues": [
                {"relation": c["relation"], "kind": c["kind"], "id": c["id"]} for c in chosen
            ],
        },
        trees=tree["trees"],
        tasks=[union.task_id],
        clues=[{"id": c["id"]} for c in chosen],
        pivots=[{"id": pivot_id}],
    )


def build_reverse_tasks(
    driver: neo4j.Driver,
    database: str | None,
    config: LeaperConfig,
    backend: LLMBackend | None = None,
    progress: Callable[[int], None] | None = None,
) -> StageReport:
    """Reverse-Union candidates from every kept Union task; existing tasks are skipped."""
    report = StageReport(STAGE)
    unions = cypher.read(driver, "leaper/find_leaper_tasks", database=database, variants=["union"])
    for batch in cypher.batched(unions, config.batch_size):
        candidates = {
            stable_id("leaper-reverse", u["task_id"], a["entity_id"]): u
            for u in batch
            for a in json.loads(u["answer_json"])[: config.bridges_per_union]
        }
        done = existing_task_ids(driver, database, list(candidates))
        report.skip(len(done))
        tasks: list[TaskRecord] = []
        for union in batch:
            if all(tid in done for tid, u in candidates.items() if u is union):
                continue
            tasks += [
                t
                for t in reverse_tasks_for(driver, database, union, config, backend)
                if t.task_id not in done
            ]
        prove_reverse(driver, database, [t for t in tasks if t.status == "kept"])
        record_tasks(driver, database, tasks, config, report)
        if progress is not None:
            progress(len(batch))
    return report.finish()
