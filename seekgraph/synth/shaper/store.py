"""KP task graphs in Neo4j (docs/schema.md §3): write a `KPTask`, read tasks back.

Ids: ``<task_id>/<name>`` for variables, ``<task_id>/<text>`` for constants (the same constant
text in two triples of one task is one node), ``<task_id>/<index>`` for triples.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import neo4j

from seekgraph.graphdb import cypher
from seekgraph.synth.shaper.kp import Const, KPTask, Term, Triple, Var


def _term_id(task_id: str, term: Term) -> str:
    return f"{task_id}/{term.name if isinstance(term, Var) else term.text}"


def task_row(task: KPTask, *, status: str = "kept", reason: str = "") -> dict[str, Any]:
    """The `merge_kp_tasks` row of one task."""
    tid = task.task_id
    var_layer: dict[Var, int] = {}
    for t in task.triples:
        for v in t.variables():
            var_layer[v] = min(var_layer.get(v, t.layer), t.layer)
    if task.expanded is not None:
        var_layer[task.expanded[0]] = task.layer
    variables = [
        {
            "variable_id": _term_id(tid, v),
            "name": v.name,
            "is_target": v.is_target,
            "layer": var_layer.get(v, 0),
        }
        for v in task.variables()
    ]
    constants = [
        {
            "constant_id": _term_id(tid, c),
            "text": c.text,
            "kind": (c.label or "unresolved").lower(),
            "ref": c.ref,
            "label": c.label,
        }
        for c in task.constants()
    ]
    triples = [
        {
            "triple_id": f"{tid}/{i}",
            "relation": t.relation,
            "index": i,
            "layer": t.layer,
            "union_group": i if len(t.objects) > 1 else None,
            "subject_id": _term_id(tid, t.subject),
            "object_ids": [_term_id(tid, o) for o in t.objects],
        }
        for i, t in enumerate(task.triples)
    ]
    expands = None
    if task.expanded is not None and task.parent_id is not None:
        var, const = task.expanded
        expands = {
            "variable_id": _term_id(tid, var),
            "constant_id": _term_id(task.parent_id, const),
        }
    props = {
        "kind": "shaper",
        "variant": "kp",
        "source": task.source,
        "question": task.question,
        "answer_json": json.dumps(task.answer, ensure_ascii=False),
        "urls": list(task.urls),
        "status": status,
        "reason": reason,
        "n_targets": len(task.answer_refs) or len(task.answer),
        "split": task.split,
        "layer": task.layer,
        "n_triples": len(task.triples),
        "n_variables": len(task.variables()) - 1,
        "origin": task.origin,
        "formalization_json": json.dumps(
            [[_fmt(t.subject), t.relation, [_fmt(o) for o in t.objects]] for t in task.triples],
            ensure_ascii=False,
        ),
    }
    return {
        "task_id": tid,
        "props": props,
        "variables": variables,
        "constants": constants,
        "triples": triples,
        "answer_refs": list(task.answer_refs),
        "parent_id": task.parent_id,
        "expands": expands,
    }


def _fmt(term: Term) -> str:
    return term.name if isinstance(term, Var) else "C@" + term.text


def save_tasks(
    driver: neo4j.Driver,
    tasks: Iterable[KPTask],
    database: str | None = None,
    *,
    status: str = "kept",
) -> int:
    """MERGE the task graphs (idempotent); returns how many were sent."""
    rows = [task_row(t, status=status) for t in tasks]
    return cypher.run_batches(
        driver, "shaper/merge_kp_tasks", rows, database=database, batch_size=100
    )


def _term(data: dict[str, Any]) -> Term:
    if data.get("variable") is not None:
        return Var(data["variable"])
    return Const(data["text"], data.get("ref"), data.get("label"))


def load_tasks(
    driver: neo4j.Driver,
    database: str | None = None,
    *,
    task_ids: list[str] | None = None,
    source: str | None = None,
    status: str | None = "kept",
) -> list[KPTask]:
    """Read KP tasks back from the graph (all, by id, or by source)."""
    records = cypher.read(
        driver,
        "shaper/read_kp_tasks",
        database=database,
        task_ids=task_ids,
        source=source,
        status=status,
    )
    tasks = []
    for rec in records:
        props = rec["task"]
        triples = tuple(
            Triple(
                _term(t["subject"]),
                t["relation"],
                tuple(_term(o) for o in t["objects"]),
                layer=t["layer"] or 0,
            )
            for t in rec["triples"]
        )
        tasks.append(
            KPTask(
                task_id=props["task_id"],
                triples=triples,
                question=props.get("question") or "",
                answer=json.loads(props.get("answer_json") or "[]"),
                answer_refs=sorted(rec["answer_refs"]),
                urls=list(props.get("urls") or []),
                source=props.get("source") or "",
                layer=props.get("layer") or 0,
                parent_id=rec["parent_id"],
                origin=props.get("origin") or "",
            )
        )
    return tasks


def delete_tasks(driver: neo4j.Driver, database: str | None, sources: list[str]) -> None:
    """Delete the KP task graphs of `sources` and the shaper stages' rejections (a fresh start)."""
    stages = ["shaper-seeds", "shaper-expand"] + (
        ["shaper-import"] if "published" in sources else []
    )
    cypher.write(
        driver, "shaper/delete_kp_tasks", database=database, sources=sources, stages=stages
    )
