"""Exact minimum necessary set by exhaustive search: the oracle for `mindag` on small graphs.

Definition as in `seekgraph.training.stategraph.mindag`. Candidates are the actions that produce something
a later action relies on (others can never help); subsets are tried by increasing size and the
first valid one is returned, ties broken by the lexicographically smallest sorted tuple.

Complexity: O(2^k · E) for k candidates, so `max_candidates` (default 18) bounds the work;
larger graphs raise `StateGraphError` rather than run for hours.

Example::

    >>> from seekgraph.training.stategraph.model import StateGraph
    >>> g = StateGraph(produces=[{"q"}, {"x"}, {"y"}, {"x", "y"}, set()],
    ...                enables=[set(), {"q"}, {"q"}, {"q"}, {"x", "y"}])
    >>> sorted(exact_necessary_actions(g))
    [0, 3, 4]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import combinations

from seekgraph.training.stategraph.errors import StateGraphError
from seekgraph.training.stategraph.model import StateGraph, is_valid


def candidates(graph: StateGraph, required: Iterable[int] = ()) -> list[int]:
    """Actions other than query, answer and `required` that produce information used later."""
    fixed = {0, graph.answer, *required}
    return [
        a
        for a in range(1, graph.answer)
        if a not in fixed
        and any(graph.produces[a] & graph.enables[c] for c in range(a + 1, graph.n_actions))
    ]


def _validity(graph: StateGraph) -> Callable[[set[int]], bool]:
    """`model.is_valid` for many sets of one graph: each action's information as bits of one
    integer, so a set is checked with a few integer operations per action."""
    bit = {info: 1 << n for n, info in enumerate(sorted(graph.infos))}
    made = [sum(bit[i] for i in infos) for infos in graph.produces]
    needs = [sum(bit[i] for i in infos) for infos in graph.enables]
    answer = graph.answer

    def valid(actions: set[int]) -> bool:
        known = 0
        for a in sorted(actions | {0, answer}):
            if needs[a] & ~known:
                return False
            known |= made[a]
        return True

    return valid


def exact_necessary_actions(
    graph: StateGraph,
    required: Iterable[int] = (),
    max_candidates: int = 18,
    known: frozenset[int] | None = None,
) -> frozenset[int]:
    """The minimum necessary set containing `required` (query and answer included).

    `known`, a valid set containing `required` (e.g. the search's answer), bounds the
    enumeration: when no smaller set is valid, `known` is returned as it is (a minimum too, but
    not necessarily the lexicographically smallest one)."""
    base = {0, graph.answer, *required}
    pool = candidates(graph, required)
    if len(pool) > max_candidates:
        raise StateGraphError(
            f"{len(pool)} candidate actions exceed the exact solver's limit of {max_candidates}"
        )
    sizes = len(pool) + 1
    if known is not None and not (base <= known and is_valid(graph, known)):
        known = None  # not a bound: never let an invalid search answer pass as a minimum
    if known is not None:
        sizes = min(sizes, len(known - base))
    valid = _validity(graph)
    for size in range(sizes):
        for combo in combinations(pool, size):
            if valid(base | set(combo)):
                return frozenset(base | set(combo))
    if known is not None:
        return known
    raise StateGraphError("the answer cannot be derived even with every action")
