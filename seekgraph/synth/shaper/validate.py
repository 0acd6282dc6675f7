"""Formal checks of a KP task and of one layer-wise expansion step, by executing the task.

`answer_of(task)` is any executor (the compiled Cypher query in the pipeline, the Python
evaluator in tests). Answers are monotone in the constraints: dropping triples can only grow the
answer set (a conjunctive query loses conditions). Hence:

- consistency: ``answer(new) == answer(old)``;
- no shortcut: no strict subset of the constraints avoiding the new variable ``V`` yields the
  answer. By monotonicity it suffices to test the largest such subset (all triples without
  ``V``): any smaller one has an answer at least as large. A new constant that is an answer
  entity or one hop from one (any relation) is also a shortcut (``shortcut_direct``): the answer
  can be read off it without resolving ``V``;
- no redundancy: dropping any single triple changes the answer set (one query per triple).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from seekgraph.synth.shaper.kp import Const, KPTask, Var

AnswerOf = Callable[[KPTask], set[str]]
NeighboursOf = Callable[[str], Iterable[str]]  # ref -> refs one hop away (any relation)


@dataclass(frozen=True)
class Failure:
    reason: str  # inconsistent | shortcut | shortcut_direct | redundant | unconstrained_target
    detail: str


def _has_target(task: KPTask) -> bool:
    return any(task.target in t.variables() for t in task.triples)


def find_redundant(task: KPTask, answer: set[str], answer_of: AnswerOf) -> Failure | None:
    """The first triple whose removal leaves the answer set unchanged, if any."""
    for i, triple in enumerate(task.triples):
        dropped = task.without(i)
        if not _has_target(dropped):
            continue  # the target would be unconstrained: the answer certainly changes
        if answer_of(dropped) == answer:
            return Failure(
                "redundant",
                f"triple {i} {triple.relation} of {_show(triple.subject)} is not needed",
            )
    return None


def validate_expansion(
    old_answer: set[str],
    new: KPTask,
    new_var: Var,
    new_constants: Iterable[Const],
    answer_of: AnswerOf,
    neighbours_of: NeighboursOf | None = None,
) -> Failure | None:
    """None when `new` (which introduced `new_var`) passes all three checks, else the first failure."""
    answer = answer_of(new)
    if answer != old_answer:
        return Failure(
            "inconsistent", f"answer changed from {len(old_answer)} to {len(answer)} entities"
        )
    avoiding = replace(new, triples=tuple(t for t in new.triples if new_var not in t.variables()))
    if _has_target(avoiding) and answer_of(avoiding) == answer:
        return Failure(
            "shortcut",
            f"the {len(avoiding.triples)} triples without {new_var.name} already yield the answer",
        )
    if neighbours_of is not None:
        for const in new_constants:
            if const.ref is not None and (
                const.ref in answer or set(neighbours_of(const.ref)) & answer
            ):
                return Failure(
                    "shortcut_direct", f"constant {const.text!r} is one hop from an answer entity"
                )
    return find_redundant(new, answer, answer_of)


def _show(term: Var | Const) -> str:
    return term.name if isinstance(term, Var) else term.text
