"""Render a KP task as a natural-language question from templates, and check the rendering.

Every triple becomes one clause; constants are quoted, the target is "the answer", other
variables "entity A", "entity B". A table fact names its table, where a reader checks it
("the answer is listed in the Wikipedia table "Booker Prize" with nationality "UK""); a page
link is phrased as a link between articles. A rendering is valid when every constant's text appears and no
answer entity's name does (as a whole word, case-insensitive). An optional LLM paraphrase
(`seekgraph.common.llm.base.LLMBackend`) is kept only when it passes the same check.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from seekgraph.synth.phrasing.tables import TableRef
from seekgraph.synth.phrasing.words import relation_words
from seekgraph.synth.shaper.kp import Const, KPTask, Term, Triple, Var, parse_relation

if TYPE_CHECKING:
    from seekgraph.common.llm.base import LLMBackend


def _var_name(var: Var, letters: dict[Var, str]) -> str:
    if var.is_target:
        return "the answer"
    return f"entity {letters[var]}"


def _term(term: Term, letters: dict[Var, str]) -> str:
    return _var_name(term, letters) if isinstance(term, Var) else f'"{term.text}"'


def _clause(t: Triple, letters: dict[Var, str], tables: dict[str, TableRef]) -> str:
    x = _term(t.subject, letters)
    s = " or ".join(_term(o, letters) for o in t.objects)
    spec = parse_relation(t.relation)
    words = relation_words(spec.name)
    if spec.kind == "link":
        if spec.inverse:
            return f"the Wikipedia article on {s} links to the article on {x}"
        return f"the Wikipedia article on {x} links to the article on {s}"
    table = tables.get(spec.table) if spec.table else None
    if table is not None:
        where = f"the Wikipedia table {table.quoted()}"
        if spec.inverse:
            return f"{x} is the {words} of {s} in {where}"
        return f"{x} is listed in {where} with {words} {s}"
    if spec.inverse:
        return f"{x} is the {words} of {s}"
    return f"{x} has {words} {s}"


def render(task: KPTask, tables: dict[str, TableRef] | None = None) -> str:
    """The template question of an executable task (`tables`: how to name each table_id)."""
    letters: dict[Var, str] = {}
    for v in task.variables():
        if not v.is_target:
            letters[v] = chr(ord("A") + len(letters)) if len(letters) < 26 else v.name
    clauses = [_clause(t, letters, tables or {}) for t in task.triples]
    unknowns = ""
    if letters:
        names = ", ".join(f"entity {c}" for c in letters.values())
        unknowns = f" ({names} {'is' if len(letters) == 1 else 'are'} unknown and must be found.)"
    return "Find every answer such that " + "; ".join(clauses) + "." + unknowns


def check_question(
    question: str, constants: Iterable[Const], answer_names: Iterable[str]
) -> str | None:
    """``None`` when valid, else a short reason: ``missing_constant`` or ``names_answer``."""
    lowered = question.lower()
    for c in constants:
        if c.text.lower() not in lowered:
            return "missing_constant"
    for name in answer_names:
        if name and re.search(rf"(?<!\w){re.escape(name.lower())}(?!\w)", lowered):
            return "names_answer"
    return None


def paraphrase(
    question: str, backend: LLMBackend, constants: Iterable[Const], answer_names: Iterable[str]
) -> str | None:
    """An LLM rewording of `question`, or None when it drops a constant or names the answer."""
    consts = list(constants)
    messages = [
        {
            "role": "system",
            "content": "Rewrite the question as one fluent English question. "
            "Keep every quoted name exactly. Do not answer it.",
        },
        {"role": "user", "content": question},
    ]
    text = backend.generate(messages, max_tokens=256, temperature=0.0).text.strip()
    if not text or check_question(text, consts, answer_names) is not None:
        return None
    return text
