"""The minimum necessary DAG of a state graph: a Dijkstra-style search and a backward closure.

Definition. Given a `StateGraph` (actions 0..n-1 in turn order, 0 the query, n-1 the answer), a
*necessary set* is a set S of actions containing the query and the answer such that, in turn
order, every action of S relies only on information produced by an earlier action of S. Its cost
is the number of actions in S other than the query and the answer (action cost 1, information
cost 0, the answer is always there). The minimum necessary DAG is a necessary set of least cost.
Finding it is NP-hard (set cover reduces to it: the answer relies on the elements, each action
produces a subset), so, as in WebClipper, we compute it approximately:

1. **Dijkstra-style search from the query.** Actions are settled in order of the size of their
   *support* (the actions needed to derive them). An action becomes reachable once each piece of
   information it relies on has a settled producer earlier in time; its support is itself plus
   the union of its producers' supports, choosing for each piece the producer that adds fewest
   new actions. Information costs 0, so it is never queued itself.
2. **Backward closure from the answer** (and any `required` actions): an action needs all the
   information it relies on, a piece of information needs one producer; a producer already in the
   set is reused, otherwise the settled producer adding the fewest new actions is taken.
3. **Redundancy elimination:** an action whose removal keeps the set valid is dropped (one pass,
   latest first), so the result is *locally minimal*.

Guarantees (tested against `seekgraph.training.stategraph.exact` on random graphs): the result is valid,
contains every required action, is locally minimal, costs at least the exact optimum, and equals
it when every piece of information has a single producer (then the closure is forced).

Complexity: O((A + E) · P · log A) for A actions, E edges, P producers per information.

Example::

    >>> g = StateGraph(produces=[{"q"}, {"x"}, {"x", "y"}, set()],
    ...                enables=[set(), {"q"}, {"q"}, {"x", "y"}])
    >>> sorted(necessary_actions(g))
    [0, 2, 3]
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable

from seekgraph.training.stategraph.errors import StateGraphError
from seekgraph.training.stategraph.model import StateGraph, is_valid, producers_by_info


def cost(graph: StateGraph, actions: Iterable[int]) -> int:
    """Number of actions other than the query and the answer."""
    return len(set(actions) - {0, graph.answer})


class _Producers:
    """Producers of each piece of information in turn order, looked up many times per search
    (`StateGraph.producers` scans every action)."""

    def __init__(self, graph: StateGraph) -> None:
        self._by_info = producers_by_info(graph)

    def before(self, info: str, action: int) -> list[int]:
        return [p for p in self._by_info.get(info, ()) if p < action]


def supports(graph: StateGraph, producers: _Producers | None = None) -> dict[int, frozenset[int]]:
    """Step 1: the settled support of every derivable action (Dijkstra-style, by support size)."""
    producers = producers or _Producers(graph)
    consumers: dict[str, list[int]] = {}
    for a, infos in enumerate(graph.enables):
        for info in infos:
            consumers.setdefault(info, []).append(a)
    settled: dict[int, frozenset[int]] = {}
    best: dict[int, frozenset[int]] = {0: frozenset({0})}
    heap: list[tuple[int, int]] = [(1, 0)]
    for c in range(1, graph.n_actions):
        if not graph.enables[c]:  # relies on nothing: derivable straight away
            best[c] = frozenset({0, c})
            heap.append((2, c))
    heapq.heapify(heap)
    while heap:
        _, a = heapq.heappop(heap)
        if a in settled:
            continue
        settled[a] = best[a]
        touched = sorted(
            {
                c
                for info in graph.produces[a]
                for c in consumers.get(info, [])
                if c > a and c not in settled
            }
        )
        for c in touched:
            candidate = _combine(graph, producers, c, settled)
            if candidate is not None and len(candidate) < len(best.get(c, _FULL)):
                best[c] = candidate
                heapq.heappush(heap, (len(candidate), c))
    return settled


_FULL = frozenset(range(1 << 20))  # larger than any real support: "not reached yet"


def _combine(
    graph: StateGraph, producers: _Producers, c: int, settled: dict[int, frozenset[int]]
) -> frozenset[int] | None:
    """Support of action `c` from settled producers, or None while some input is unreachable."""
    current: set[int] = {0, c}
    for info in graph.enables[c]:
        if not any(p in settled for p in producers.before(info, c)):
            return None
    _cover(graph, producers, c, set(graph.enables[c]), settled, current, whole_support=True)
    return frozenset(current)


def _cover(
    graph: StateGraph,
    producers: _Producers,
    consumer: int,
    infos: set[str],
    settled: dict[int, frozenset[int]],
    chosen: set[int],
    *,
    whole_support: bool,
) -> list[int]:
    """Greedy weighted set cover of `infos` by settled producers before `consumer`.

    A producer's price is the number of actions its support adds to `chosen`, divided by how
    many still-uncovered pieces it produces; the cheapest is taken until all are covered. Adds
    the producer (or, with `whole_support`, its whole support) to `chosen`; returns new picks.
    """
    uncovered = {i for i in infos if not any(p in chosen for p in producers.before(i, consumer))}
    picks: list[int] = []
    while uncovered:
        options = {p for i in uncovered for p in producers.before(i, consumer) if p in settled}
        if not options:
            missing = sorted(uncovered)[0]
            raise StateGraphError(
                f"action {consumer} relies on {missing!r}, which nothing before "
                "it derivably produces"
            )
        pick = min(
            options,
            key=lambda p: (
                len(settled[p] - chosen) / max(1, len(graph.produces[p] & uncovered)),
                p,
            ),
        )
        if whole_support:
            chosen |= settled[pick]
        else:
            chosen.add(pick)
        picks.append(pick)
        uncovered -= graph.produces[pick]
    return picks


def closure(
    graph: StateGraph,
    settled: dict[int, frozenset[int]],
    roots: Iterable[int],
    producers: _Producers | None = None,
) -> set[int]:
    """Step 2: the backward closure of `roots` (one producer per needed piece of information)."""
    producers = producers or _Producers(graph)
    needed: set[int] = {0, *roots}
    pending = [-a for a in needed]
    heapq.heapify(pending)
    while pending:
        a = -heapq.heappop(pending)
        enables = set(graph.enables[a])
        for pick in _cover(graph, producers, a, enables, settled, needed, whole_support=False):
            heapq.heappush(pending, -pick)
    return needed


def eliminate_redundant(graph: StateGraph, actions: set[int], keep: Iterable[int] = ()) -> set[int]:
    """Step 3: drop, latest first, every action whose removal keeps the set valid."""
    fixed = {0, graph.answer, *keep}
    result = set(actions)
    for a in sorted(result - fixed, reverse=True):
        if is_valid(graph, result - {a}):
            result.discard(a)
    return result


def necessary_actions(graph: StateGraph, required: Iterable[int] = ()) -> frozenset[int]:
    """Approximate minimum necessary set (query and answer included) containing `required`.

    Raises `StateGraphError` when the answer or a required action cannot be derived.
    """
    required = set(required) - {0}
    producers = _Producers(graph)
    settled = supports(graph, producers)
    for a in {graph.answer, *required}:
        if a not in settled:
            raise StateGraphError(f"action {a} cannot be derived from the query")
    closed = closure(graph, settled, {graph.answer, *required}, producers)
    union = set().union(*(settled[a] for a in {graph.answer, *required}))
    best = min((closed, union), key=len)
    return frozenset(eliminate_redundant(graph, best, keep=required))
