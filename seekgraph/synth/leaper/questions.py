"""WebLeaper question texts from templates, in plain English, with an optional checked paraphrase.

A question names what it asks for in the words of `seekgraph.synth.phrasing`: the kind of entity
(from the key column), each attribute ("their country", "the year they were born") and each
clue ("whose country is Japan"). Tables are named by their title and section in quotes, as a
person would search for them. Templates keep the question checkable: every table and clue is
named, the answers never are.

A paraphrase by an LLM backend is used only when it keeps every quoted name, every clue value
and every asked attribute (`paraphrase_keeps`); otherwise the template stays, and the task
records which text it got (`question_source`: ``template`` or the backend's name).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from seekgraph.synth.phrasing import (
    TableRef,
    attribute_phrase,
    condition_phrase,
    join,
    label,
    relation_words,
)

if TYPE_CHECKING:
    from seekgraph.common.llm.base import LLMBackend


def table_ref(tree: dict[str, Any]) -> TableRef:
    """How a question names a tree's table (a row of ``leaper/find_tree_anchors``)."""
    return TableRef(tree.get("title") or tree["root"], tree.get("section_title") or "")


def _attributes(
    relations: Sequence[str], kinds: dict[str, set[str]], labels: dict[str, str] | None = None
) -> str:
    labels = labels or {}
    return join([attribute_phrase(labels.get(r, r), kinds.get(r, set())) for r in relations])


def table_labels(headers: Iterable[dict[str, str]]) -> dict[str, str]:
    """relation → the words a table's header gives it (the first column holding it wins)."""
    labels: dict[str, str] = {}
    for h in headers:
        if h.get("relation"):
            labels.setdefault(h["relation"], label(h["relation"], h["header"]))
    return labels


def basic_question(
    table: TableRef,
    kind_plural: str,
    relations: Sequence[str],
    kinds: dict[str, set[str]],
    labels: dict[str, str] | None = None,
) -> str:
    """Which entities a table lists, each with its attributes.

    >>> basic_question(TableRef("Booker Prize", "Winners"), "authors", ["country", "year"], {})
    'Which authors are listed in the Wikipedia table "Booker Prize" (section "Winners")? For each, give their country and their year.'
    """
    return (
        f"Which {kind_plural} are listed in the Wikipedia table {table.quoted()}? "
        f"For each, give {_attributes(relations, kinds, labels)}."
    )


def union_question(
    tables: Sequence[TableRef],
    kind_plurals: Sequence[str],
    relations: Sequence[str],
    kinds: dict[str, set[str]],
    labels: dict[str, str] | None = None,
) -> str:
    """The entities every one of several tables lists, with the attributes they all state.

    Tables whose key columns name their entities alike share one kind; otherwise each table's
    kind is named ("Which laureates listed in A are also listed, as authors, in B?").

    >>> union_question([TableRef("A"), TableRef("B")], ["laureates", "authors"], ["year"], {})
    'Which laureates listed in the Wikipedia table "A" are also listed, as authors, in "B"? For each, give their year, as each table states them.'
    """
    names = [t.quoted() for t in tables]
    asked = f"For each, give {_attributes(relations, kinds, labels)}, as each table states them."
    if len(set(kind_plurals)) == 1:
        where = (
            f"both of the Wikipedia tables {names[0]} and {names[1]}"
            if len(names) == 2
            else f"all {len(names)} of the Wikipedia tables {join(names)}"
        )
        return f"Which {kind_plurals[0]} are listed in {where}? {asked}"
    others = [f"as {k}, in {n}" for k, n in zip(kind_plurals[1:], names[1:], strict=True)]
    return (
        f"Which {kind_plurals[0]} listed in the Wikipedia table {names[0]} are also listed, "
        f"{join(others)}? {asked}"
    )


def reverse_question(
    tables: Sequence[TableRef],
    kind: str,
    kind_plural: str,
    clues: Sequence[tuple[str, str, str]],
    pivot_relation: str,
    relations: Sequence[str],
    kinds: dict[str, set[str]],
    labels: dict[str, str] | None = None,
) -> str:
    """Find one entity from its clues, read its pivot, list the others sharing it."""
    labels = labels or {}
    described = " and ".join(condition_phrase(labels.get(r, r), value, k) for r, value, k in clues)
    pivot = relation_words(labels.get(pivot_relation, pivot_relation))
    asked = f" For each, give {_attributes(relations, kinds, labels)}." if relations else ""
    return (
        f"Among the {kind_plural} listed in the Wikipedia tables {join([t.quoted() for t in tables])}, "
        f"exactly one {kind} {described}. Find its {pivot}, then list every other {kind} in these "
        f"tables with the same {pivot}.{asked}"
    )


def asked_words(relations: Sequence[str], labels: dict[str, str]) -> list[str]:
    """The words naming each asked attribute: a paraphrase must keep every one of them (a
    dropped attribute is a dropped condition)."""
    return [labels.get(r) or relation_words(r) for r in relations]


def paraphrase_keeps(text: str, must_keep: Iterable[str]) -> bool:
    """True when `text` still contains every string of `must_keep` (case-insensitive)."""
    low = text.lower()
    return all(item.lower() in low for item in must_keep if item)


def quoted_names(question: str) -> list[str]:
    return re.findall(r'"([^"]+)"', question)


def paraphrase(
    question: str, backend: LLMBackend | None, must_keep: Iterable[str] = ()
) -> tuple[str, str]:
    """(question, source): the backend's rewording when it keeps every quoted name and every
    string of `must_keep`, else the template (source ``template``)."""
    if backend is None:
        return question, "template"
    generation = backend.generate(
        [
            {
                "role": "system",
                "content": "Rewrite the question fluently. Keep every quoted name, number "
                "and condition exactly. Reply with the question only.",
            },
            {"role": "user", "content": question},
        ],
        max_tokens=200,
        temperature=0.0,
    )
    text = " ".join(generation.text.split())
    keep = [*quoted_names(question), *must_keep]
    if text and paraphrase_keeps(text, keep):
        return text, backend.name
    return question, "template"
