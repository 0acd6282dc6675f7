"""The answers view of a task: the question, each gold record, and the source rows that prove
it, nothing else. A reviewer checks a task here against its tables without reading a graph.

Leaper tasks are proven by rows of their own tables whose key cell is the answer entity (the
cells of asked attributes marked); KP tasks by rows of the tables their relations name that
hold the answer, and each answer is checked against the executed answer set.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import neo4j

from seekgraph.common.answers import AnswerRecord as GoldRecord
from seekgraph.common.answers import gold_records
from seekgraph.graphdb import cypher
from seekgraph.viz.errors import RenderError


@dataclass(frozen=True)
class ProofRow:
    table_id: str
    title: str
    section: str
    row: int
    cells: tuple[tuple[str, str, bool], ...]  # (header, text, asked)


@dataclass(frozen=True)
class AnsweredRecord:
    name: str
    entity_id: str
    attributes: dict[str, list[str]]
    rows: tuple[ProofRow, ...] = ()
    executed: bool = True  # KP: the stored answer set holds it


@dataclass
class AnswersView:
    task_id: str
    kind: str
    variant: str
    question: str
    status: str
    records: list[AnsweredRecord] = field(default_factory=list)

    @property
    def unproven(self) -> list[str]:
        """Names of gold records no source row (leaper) or answer set (KP) supports."""
        if self.kind == "shaper":
            return [r.name for r in self.records if not r.executed]
        return [r.name for r in self.records if not r.rows]


def _asked(text: str, record: GoldRecord) -> bool:
    values = {v.casefold() for vs in record.attributes.values() for v in vs}
    return bool(text) and text.casefold() in values


def load_answers(driver: neo4j.Driver, database: str | None, task_id: str) -> AnswersView:
    """The answers view of `task_id`; `RenderError` when no such task exists."""
    rows = cypher.read(driver, "explore/show_task_answers", database=database, task_id=task_id)
    if not rows:
        raise RenderError(f"no task {task_id!r} (list them with `seekgraph browse --list`)")
    row = rows[0]
    view = AnswersView(
        row["task_id"],
        row["kind"] or "",
        row["variant"] or "",
        row["question"] or "",
        row["status"] or "",
    )
    records = gold_records(row["answer_json"])
    by_entity: dict[str, list[dict[str, Any]]] = {}
    for proof in row["rows"]:
        by_entity.setdefault(proof["entity_id"], []).append(proof)
    executed = {str(x["id"]) for x in row["executed"]}
    by_name = {str(x["name"]).casefold(): str(x["id"]) for x in row["executed"]}
    for record in records:
        # a KP record names its entity only: the executed answer of that name
        entity_id = record.entity_id or by_name.get(record.name.casefold(), "")
        proofs = sorted(by_entity.get(entity_id, []), key=lambda p: (p["table_id"], p["row"]))
        view.records.append(
            AnsweredRecord(
                name=record.name,
                entity_id=entity_id,
                attributes=record.attributes,
                rows=tuple(
                    ProofRow(
                        p["table_id"],
                        p["title"] or "",
                        p["section"] or "",
                        int(p["row"]),
                        tuple(
                            (c["header"], c["text"] or "", _asked(c["text"] or "", record))
                            for c in p["cells"]
                        ),
                    )
                    for p in proofs
                ),
                executed=entity_id in executed,
            )
        )
    return view


def answers_text(view: AnswersView) -> list[str]:
    """The view as terminal lines."""
    lines = [
        f"{view.task_id} ({view.kind}/{view.variant}, {view.status}): {len(view.records)} answers",
        f"Q: {view.question}",
    ]
    for i, record in enumerate(view.records, start=1):
        asked = "; ".join(f"{k}: {', '.join(v)}" for k, v in record.attributes.items())
        lines.append(f"{i:>3}. {record.name}" + (f" | {asked}" if asked else ""))
        for proof in record.rows:
            cells = " | ".join(f"{h}={'*' if asked else ''}{t}" for h, t, asked in proof.cells if t)
            lines.append(f"       row {proof.row} of {proof.title} ({proof.table_id}): {cells}")
        if view.kind != "shaper" and not record.rows:
            lines.append("       NO SOURCE ROW")
        if view.kind == "shaper":
            lines.append(
                "       in the executed answer set"
                if record.executed
                else "       NOT IN THE EXECUTED ANSWER SET"
            )
    if view.unproven:
        lines.append(f"unproven: {', '.join(view.unproven)}")
    return lines


def write_answers_html(view: AnswersView, path: Path) -> Path:
    """A one-file HTML page of the view (a table per answer; asked cells highlighted)."""
    e = html.escape
    parts = [
        "<!doctype html><meta charset='utf-8'>",
        f"<title>answers of {e(view.task_id)}</title>",
        "<style>body{font:14px sans-serif;margin:2em;max-width:70em}"
        "table{border-collapse:collapse;margin:.3em 0 1em}td,th{border:1px solid #ccc;"
        "padding:2px 6px}th{background:#f3f3f3}.asked{background:#ffe08a}"
        ".bad{color:#b00;font-weight:bold}</style>",
        f"<h1>{e(view.task_id)}</h1>",
        f"<p>{e(view.kind)}/{e(view.variant)}, {e(view.status)}, {len(view.records)} answers</p>",
        f"<p><b>Question:</b> {e(view.question)}</p><ol>",
    ]
    for record in view.records:
        asked = "; ".join(f"{k}: {', '.join(v)}" for k, v in record.attributes.items())
        parts.append(f"<li><b>{e(record.name)}</b> <code>{e(record.entity_id)}</code>")
        if asked:
            parts.append(f" &mdash; {e(asked)}")
        for proof in record.rows:
            parts.append(
                f"<div>row {proof.row} of <i>{e(proof.title)}</i> "
                f"<code>{e(proof.table_id)}</code></div><table><tr>"
            )
            parts += [f"<th>{e(h)}</th>" for h, _, _ in proof.cells]
            parts.append("</tr><tr>")
            parts += [f"<td class='{'asked' if a else ''}'>{e(t)}</td>" for _, t, a in proof.cells]
            parts.append("</tr></table>")
        if view.kind != "shaper" and not record.rows:
            parts.append("<div class='bad'>no source row proves this answer</div>")
        if view.kind == "shaper" and not record.executed:
            parts.append("<div class='bad'>not in the executed answer set</div>")
        parts.append("</li>")
    parts.append("</ol>")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(parts), encoding="utf-8")
    return path
