"""The published WebShaper format ``{id, question, answer, formalization, urls}``: parse and write.

An element of `formalization` is ``[subject, relation, object]``; ``V@X`` is a variable,
``C@text`` a constant, ``"?"`` the target. About 1% of published elements are not 3-item
triples. `normalise_element` rewrites the shapes whose meaning is unambiguous and rejects the rest:

- ``[X, r, O1, "and", O2]`` → ``[X, r, O1]`` and ``[X, r, O2]`` (both hold: an intersection);
- ``[X, r, O1, O2, ...]`` with only terms after ``r`` → one triple per object;
- ``[X, "p"]`` (a unary property, no term inside ``p``) → ``[X, "has property", "C@p"]``;
- 3-item ``[X, "r1 & r2", "O1 & O2"]`` with equally many parts → ``[X, r1, O1]``, ``[X, r2, O2]``.

Anything else (a trailing ``"?"`` after an object, relation words between several terms, terms
inside a relation) is rejected as ``ambiguous_element``. An R-union we write ourselves is the
object ``"C@a || C@b"`` (never seen in the published rows), so export→import is lossless.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seekgraph.synth.shaper.kp import TARGET, Const, KPTask, ShaperError, Term, Triple, Var

UNION_SEPARATOR = " || "
UNARY_RELATION = "has property"
_REQUIRED = ("id", "question", "answer", "formalization")


class ElementError(ShaperError):
    """One formalization element cannot be read; `reason` is the short rejection code."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason


@dataclass
class Parsed:
    """One published row: the task, or why it was rejected, and what was normalised."""

    row_id: str
    task: KPTask | None = None
    reason: str = ""
    detail: str = ""
    normalised: list[str] = field(default_factory=list)  # one code per rewritten element


def is_term(item: str) -> bool:
    return item == TARGET or item.startswith(("V@", "C@"))


def parse_term(item: str) -> Term:
    if item == TARGET:
        return Var(TARGET)
    if item.startswith("V@") and len(item) > 2:
        return Var(item)
    if item.startswith("C@") and len(item) > 2:
        return Const(item[2:])
    raise ElementError("bad_term", f"{item!r} is not a term (V@..., C@... or ?)")


def format_term(term: Term) -> str:
    return term.name if isinstance(term, Var) else "C@" + term.text


def _contains_term(text: str) -> bool:
    return any(token in text for token in ("V@", "C@")) or text.strip() == TARGET


def normalise_element(element: Any) -> tuple[list[list[str]], str]:
    """``(triples, code)``: the 3-item triples an element means; code ``""`` when untouched.

    Raises `ShaperError` (the rejection detail) when the element's meaning is ambiguous.
    """
    if not isinstance(element, list) or not all(isinstance(x, str) for x in element):
        raise ElementError("not_a_triple", f"element is not a list of strings: {element!r}"[:300])
    items = [x.strip() for x in element]
    if len(items) == 3:
        s, r, o = items
        if _contains_term(r):
            raise ElementError("term_in_relation", f"relation {r!r} holds a term"[:300])
        if " & " in r and " & " in o:
            rels, objs = r.split(" & "), o.split(" & ")
            if len(rels) == len(objs) and all(is_term(x.strip()) for x in objs):
                pairs = zip(rels, objs, strict=True)
                return [[s, a.strip(), b.strip()] for a, b in pairs], "split_compound"
            raise ElementError(
                "ambiguous_compound",
                f"compound relation and object do not pair up: {element!r}"[:300],
            )
        if o and not is_term(o) and not _contains_term(o):
            return [[s, r, "C@" + o]], "bare_constant"
        return [items], ""
    if len(items) == 2 and is_term(items[0]) and not _contains_term(items[1]):
        return [[items[0], UNARY_RELATION, "C@" + items[1]]], "unary_property"
    if len(items) >= 4 and is_term(items[0]) and not is_term(items[1]):
        rest = items[2:]
        if TARGET not in rest:
            if len(rest) == 3 and is_term(rest[0]) and rest[1] == "and" and is_term(rest[2]):
                return [[items[0], items[1], rest[0]], [items[0], items[1], rest[2]]], "split_and"
            if all(is_term(x) for x in rest):
                return [[items[0], items[1], x] for x in rest], "split_objects"
    raise ElementError(
        "ambiguous_element",
        f"{len(items)}-item element with no unambiguous reading: {element!r}"[:300],
    )


def parse_row(row: Any) -> Parsed:
    """Turn one published row into a `KPTask` (id ``webshaper:<id>``) or a rejection."""
    if not isinstance(row, dict):
        return Parsed("?", reason="not_an_object", detail=repr(row)[:200])
    row_id = str(row.get("id", "")).strip()
    missing = [k for k in _REQUIRED if k not in row]
    if not row_id or missing:
        return Parsed(row_id or "?", reason="missing_field", detail=f"missing {missing or ['id']}")
    formalization = row["formalization"]
    if not isinstance(formalization, list) or not formalization:
        return Parsed(row_id, reason="empty_formalization")
    parsed = Parsed(row_id)
    triples: list[Triple] = []
    for element in formalization:
        try:
            items, code = normalise_element(element)
            for s, r, o in items:
                subject = parse_term(s)
                objects = tuple(parse_term(x) for x in o.split(UNION_SEPARATOR))
                if not r:
                    raise ElementError("empty_relation", f"empty relation in {element!r}"[:300])
                triples.append(Triple(subject, r, objects))
        except ElementError as e:
            return Parsed(row_id, reason=e.reason, detail=str(e))
        if code:
            parsed.normalised.append(code)
    answer = row["answer"]
    task = KPTask(
        task_id=f"webshaper:{row_id}",
        triples=tuple(triples),
        question=str(row["question"]),
        answer=[str(a) for a in answer] if isinstance(answer, list) else [str(answer)],
        urls=[str(u) for u in row.get("urls") or []],
        source="published",
        origin=row_id,
    )
    try:
        task.check()
    except ShaperError as e:
        reason = "no_target" if "target" in str(e) else "bad_union"
        return Parsed(row_id, reason=reason, detail=str(e))
    parsed.task = task
    return parsed


def read_rows(path: Path) -> Iterator[Parsed]:
    """Parse every line of a published JSONL file; a broken line is a rejection, not a crash."""
    with path.open(encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                yield Parsed(f"line{number}", reason="broken_json", detail=str(e))
                continue
            yield parse_row(row)


def to_row(task: KPTask) -> dict[str, Any]:
    """The published form of a task (the `id` without our ``webshaper:`` prefix); the answer is
    always a list, so a trainer reads one type per column."""
    formalization = [
        [
            format_term(t.subject),
            t.relation,
            UNION_SEPARATOR.join(format_term(o) for o in t.objects),
        ]
        for t in task.triples
    ]
    return {
        "id": task.task_id.removeprefix("webshaper:"),
        "question": task.question,
        "answer": list(task.answer),  # always a list (the published file mixes both)
        "formalization": formalization,
        "urls": list(task.urls),
    }
