"""Exact minimum necessary set by exhaustive search: the oracle for `mindag` on small graphs.

Definition as in `training.stategraph.mindag`. Candidates are the actions that produce something
a later action relies on (others can never help); subsets are tried by increasing size and the
first valid one is returned, ties broken by the lexicographically smallest sorted tuple.

Complexity: O(2^k · E) for k candidates, so `max_candidates` (default 18) bounds the work;
larger graphs raise `StateGraphError` rather than run for hours.

Example::

    >>> from training.stategraph.model import StateGraph
    >>> g = StateGraph(produces=[{"q"}, {"x"}, {"y"}, {"x", "y"}, set()],
    ...                enables=[set(), {"q"}, {"q"}, {"q"}, {"x", "y"}])
    >>> sorted(exact_necessary_actions(g))
    [0, 3, 4]
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from training.stategraph.errors import StateGraphError
from training.stategraph.model import StateGraph, is_valid


def candidates(graph: StateGraph, required: Iterable[int] = ()) -> list[int]:
    """Actions other than query, answer and `required` that produce information used later."""
    fixed = {0, graph.answer, *required}
    return [
        a
        for a in range(1, graph.answer)
        if a not in fixed
        and any(graph.produces[a] & graph.enables[c] for c in range(a + 1, graph.n_actions))
    ]


def exact_necessary_actions(
    graph: StateGraph, required: Iterable[int] = (), max_candidates: int = 18
) -> frozenset[int]:
    """The minimum necessary set containing `required` (query and answer included)."""
    base = {0, graph.answer, *required}
    pool = candidates(graph, required)
    if len(pool) > max_candidates:
        raise StateGraphError(
            f"{len(pool)} candidate actions exceed the exact solver's limit of {max_candidates}"
        )
    for size in range(len(pool) + 1):
        for combo in combinations(pool, size):
            if is_valid(graph, base | set(combo)):
                return frozenset(base | set(combo))
    raise StateGraphError("the answer cannot be derived even with every action")
