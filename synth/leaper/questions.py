"""Question texts from templates, with an optional paraphrase by an LLM backend.

Templates keep the question checkable: every entity the question names is a clue or a root, and
the answer is never named. A paraphrase is used only when a backend is given explicitly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from common.llm.base import LLMBackend


def _join(items: Sequence[str]) -> str:
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _rel(name: str) -> str:
    return name.replace("_", " ")


def basic_question(root: str, key_header: str | None, relations: Sequence[str]) -> str:
    """The Basic question: the root is named, the anchors and their attributes are asked for.

    >>> basic_question("Booker Prize: Winners", "Author", ["year", "nationality"])
    'Consider Booker Prize: Winners. List every author it includes and, for each, give their year and nationality.'
    """
    subject = (key_header or "entry").lower()
    return (
        f"Consider {root}. List every {subject} it includes and, for each, give their "
        f"{_join([_rel(r) for r in relations])}."
    )


def union_question(roots: Sequence[str], relations: Sequence[str]) -> str:
    listed = "; ".join(roots)
    return (
        f"Which entities appear in every one of these lists: {listed}? First find the "
        f"members of each list, then give, for every entity in all of them, their "
        f"{_join([_rel(r) for r in relations])}."
    )


def reverse_question(
    clues: Sequence[tuple[str, str]], pivot_relation: str, roots: Sequence[str]
) -> str:
    described = _join([f"whose {_rel(rel)} is {text}" for rel, text in clues])
    return (
        f"There is exactly one entity {described}. Identify it, find its "
        f"{_rel(pivot_relation)}, and list every other entity that appears in all of these "
        f"lists — {'; '.join(roots)} — with that same {_rel(pivot_relation)} there."
    )


def paraphrase(question: str, backend: LLMBackend | None) -> str:
    """Reword `question` with `backend`; without a backend the template text is returned as is."""
    if backend is None:
        return question
    generation = backend.generate(
        [
            {
                "role": "system",
                "content": "Rewrite the question fluently. Keep every name, number "
                "and condition. Reply with the question only.",
            },
            {"role": "user", "content": question},
        ],
        max_tokens=200,
        temperature=0.0,
    )
    text = generation.text.strip()
    return text if text else question
