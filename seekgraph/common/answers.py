"""The one shape of an answer: records of an entity and the attribute values the question asks.

A task's gold answer (`Task.answer_json`) is a list of records
``{"name", "entity_id", "attributes": {relation: [values]}}``; a single-entity task has one
record without attributes. A record may also carry ``rows`` (an entity listed in several rows
of one table: ``[{"table", "attributes"}]``, its values row by row) and ``sources`` (values
from several tables: relation -> value -> tables); scoring reads only the attributes. On the wire (the teacher's and the policy's ``<answer>``) a record
is one line, its attributes after ``|``, several values joined by ``;``::

    Kazuo Ishiguro | country: United Kingdom | year: 2017
    Doris Lessing | country: United Kingdom; Zimbabwe | year: 2007

Scoring compares *atoms*: one per answered entity and one per (entity, value) pair. A value
counts wherever the line puts it (the relation label is the policy's own words), so an answer
with every entity right but no attributes earns the entity atoms only. With no attributes
requested, atom F1 is the set F1 over names. Example: gold {A: year 1980}, {B: year 1990};
prediction ``A | year: 1980`` and ``C`` → 2 of 3 predicted atoms right, 2 of 4 gold atoms
found: P = 2/3, R = 1/2.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from seekgraph.common.text import normalize

_ITEM_SPLIT = re.compile(r"\n|;")


@dataclass(frozen=True)
class AnswerRecord:
    """One answered entity with the values of the attributes asked for."""

    name: str
    attributes: dict[str, list[str]] = field(default_factory=dict)
    entity_id: str = ""
    # an entity listed in several rows of one table: its values row by row (each a
    # relation -> values map), so which value goes with which is kept; () otherwise
    rows: tuple[dict[str, list[str]], ...] = ()

    def line(self) -> str:
        """The record on the wire: ``name | relation: v1; v2 | ...``."""
        parts = [self.name]
        parts += [f"{k.replace('_', ' ')}: {'; '.join(v)}" for k, v in self.attributes.items() if v]
        return " | ".join(parts)


def gold_records(answer_json: str | None) -> list[AnswerRecord]:
    """The gold records of `Task.answer_json`; a plain string or list of strings (older tasks,
    KP tasks) gives records without attributes."""
    if not answer_json:
        return []
    try:
        value: Any = json.loads(answer_json)
    except (json.JSONDecodeError, TypeError):
        value = answer_json
    if isinstance(value, dict):
        for key in ("answers", "answer", "items", "targets"):
            if key in value:
                value = value[key]
                break
    if not isinstance(value, list):
        value = [value]
    records = []
    for item in value:
        if isinstance(item, dict):
            name = str(item.get("name") or item.get("text") or item.get("answer") or "").strip()
            attributes = {
                str(k): [str(v) for v in (vs if isinstance(vs, list) else [vs])]
                for k, vs in (item.get("attributes") or {}).items()
            }
            rows = tuple(
                {str(k): [str(v) for v in vs] for k, vs in (row.get("attributes") or {}).items()}
                for row in item.get("rows") or []
                if isinstance(row, dict)
            )
            if name:
                entity_id = str(item.get("entity_id") or "")
                records.append(AnswerRecord(name, attributes, entity_id, rows))
        elif isinstance(item, list):
            if item:
                records.append(AnswerRecord(" ".join(str(x) for x in item)))
        elif str(item).strip():
            records.append(AnswerRecord(str(item).strip()))
    return records


def gold_names(answer_json: str | None) -> list[str]:
    """The flat list of answer names (the entity list beside the records)."""
    return [r.name for r in gold_records(answer_json)]


def format_records(records: Iterable[AnswerRecord]) -> str:
    """The answer text of `records`, one line each."""
    return "\n".join(r.line() for r in records)


def parse_records(text: str, expect_many: bool = True) -> list[AnswerRecord]:
    """Records from an answer text: one per line, attributes after ``|`` as ``label: values``.

    A line without ``|`` holds names joined by ``;``; a single such line is also split at
    commas when several answers are expected.
    """
    lines = [ln.strip(" -*•\t") for ln in (text or "").splitlines()]
    lines = [ln for ln in lines if ln]
    if len(lines) == 1 and "|" not in lines[0]:
        names = [p.strip() for p in _ITEM_SPLIT.split(lines[0]) if p.strip()]
        if expect_many and len(names) == 1 and "," in names[0]:
            names = [p.strip() for p in names[0].split(",") if p.strip()]
        return [AnswerRecord(n) for n in names]
    records = []
    for line in lines:
        if "|" not in line:
            records += [AnswerRecord(n.strip()) for n in line.split(";") if n.strip()]
            continue
        name, *fields = [p.strip() for p in line.split("|")]
        attributes: dict[str, list[str]] = {}
        for i, part in enumerate(fields):
            key, sep, values = part.partition(":")
            if not sep:
                key, values = f"value {i + 1}", part
            attributes[key.strip()] = [v.strip() for v in values.split(";") if v.strip()]
        if name:
            records.append(AnswerRecord(name, attributes))
    return records


def _entity_key(name: str, aliases: dict[str, set[str]]) -> str:
    """A name's canonical key: the first of its entity's normalised names, else its own."""
    key = normalize(name)
    names = aliases.get(key)
    return min(names) if names else key


def answer_atoms(
    records: Sequence[AnswerRecord], aliases: dict[str, set[str]] | None = None
) -> set[tuple[str, ...]]:
    """(entity,) and (entity, value) atoms; `aliases` maps a normalised name to every
    normalised name of its entity (`seekgraph.agent.metrics.alias_map`), so aliases meet."""
    aliases = aliases or {}
    atoms: set[tuple[str, ...]] = set()
    for record in records:
        key = _entity_key(record.name, aliases)
        if not key:
            continue
        atoms.add((key,))
        for values in record.attributes.values():
            atoms.update((key, normalize(v)) for v in values if normalize(v))
    return atoms


def atom_prf(
    predicted: Sequence[AnswerRecord],
    gold: Sequence[AnswerRecord],
    aliases: dict[str, set[str]] | None = None,
) -> tuple[float, float, float]:
    """Precision, recall and F1 of the predicted atoms against the gold atoms.

    >>> gold = [AnswerRecord("A", {"year": ["1980"]}), AnswerRecord("B", {"year": ["1990"]})]
    >>> [round(x, 3) for x in atom_prf([AnswerRecord("A", {"y": ["1980"]}), AnswerRecord("C")], gold)]
    [0.667, 0.5, 0.571]
    """
    aliases = dict(aliases or {})
    for record in gold:
        key = normalize(record.name)
        aliases.setdefault(key, set()).add(key)
    gold_atoms = answer_atoms(gold, aliases)
    pred_atoms = answer_atoms(predicted, aliases)
    if not gold_atoms or not pred_atoms:
        return 0.0, 0.0, 0.0
    right = len(pred_atoms & gold_atoms)
    precision, recall = right / len(pred_atoms), right / len(gold_atoms)
    f1 = 2 * precision * recall / (precision + recall) if right else 0.0
    return precision, recall, f1
