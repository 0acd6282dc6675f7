"""A trajectory's state graph as plain data (WebClipper §3.2).

Actions are numbered by turn: action 0 is the query (it produces the question's facts, costs
nothing), action ``t`` is the t-th assistant turn, and the last action is the final answer (the
sink). Information nodes are keyed by a string. Two edge kinds:

- ``produces[a]``: the information action ``a``'s observation introduced (Action → Information);
- ``enables[a]``: the information action ``a`` relies on (Information → Action).

A set of actions is *valid* when, taken in turn order, every action in it relies only on
information an earlier action of the set (or the query) produced. Time matters: a fact produced
at turn 7 cannot support a thought written at turn 5, so producers must precede consumers.

Example::

    >>> g = StateGraph(produces=[{"q"}, {"x"}, {"y"}, set()], enables=[set(), {"q"}, {"q"}, {"x"}])
    >>> g.answer, g.producers("x", before=3)
    (3, [1])
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from seekgraph.training.stategraph.errors import StateGraphError


@dataclass
class StateGraph:
    """Bipartite action/information graph of one trajectory (see the module docstring)."""

    produces: list[set[str]]
    enables: list[set[str]]
    info_text: dict[str, str] = field(default_factory=dict)
    info_kind: dict[str, str] = field(default_factory=dict)
    extractor: str = "rule"
    run: int = 0
    granularity: str = ""
    notes: dict[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.produces) != len(self.enables) or len(self.produces) < 2:
            raise StateGraphError(
                "a state graph needs the query and at least an answer action, "
                "with one produces/enables set per action"
            )

    @property
    def n_actions(self) -> int:
        return len(self.produces)

    @property
    def answer(self) -> int:
        return self.n_actions - 1

    @property
    def infos(self) -> set[str]:
        out: set[str] = set()
        for s in (*self.produces, *self.enables):
            out |= s
        return out

    def producers(self, info: str, *, before: int | None = None) -> list[int]:
        """Actions producing `info`, in turn order, optionally only those before turn `before`."""
        end = self.n_actions if before is None else before
        return [a for a in range(end) if info in self.produces[a]]

    def edge_count(self) -> tuple[int, int]:
        return sum(map(len, self.produces)), sum(map(len, self.enables))

    @property
    def extraction_failed(self) -> bool:
        """True for an LLM construction none of whose replies parsed: it holds no information,
        so every search on it keeps only the required actions, and three such empty graphs
        would "agree". The vote counts it as a failed construction instead."""
        calls = self.notes.get("calls", 0)
        failures = self.notes.get("parse_failures", 0)
        return isinstance(calls, int) and isinstance(failures, int) and 0 < calls <= failures


def is_valid(graph: StateGraph, actions: Iterable[int]) -> bool:
    """True when `actions` (plus query and answer) derive the answer in turn order.

    O(sum of edge counts of the chosen actions). The query (0) and the answer are always added.
    """
    chosen = sorted(set(actions) | {0, graph.answer})
    known: set[str] = set()
    for a in chosen:
        if not graph.enables[a] <= known:
            return False
        known |= graph.produces[a]
    return True


def restrict(graph: StateGraph, allowed: Iterable[int]) -> StateGraph:
    """The graph where actions outside `allowed` produce nothing (their enables stay).

    Used with the Cypher ancestor set: an action that cannot reach the answer in the stored
    graph can never be necessary, so its products are ignored by the search.
    """
    keep = set(allowed) | {0, graph.answer}
    produces = [set(p) if a in keep else set() for a, p in enumerate(graph.produces)]
    return StateGraph(
        produces=produces,
        enables=[set(e) for e in graph.enables],
        info_text=graph.info_text,
        info_kind=graph.info_kind,
        extractor=graph.extractor,
        run=graph.run,
        granularity=graph.granularity,
        notes=dict(graph.notes),
    )


def producers_by_info(graph: StateGraph) -> dict[str, list[int]]:
    """Each piece of information's producing actions, in turn order. O(edges)."""
    producers: dict[str, list[int]] = {}
    for a, infos in enumerate(graph.produces):
        for info in infos:
            producers.setdefault(info, []).append(a)
    return producers


def answer_ancestors(graph: StateGraph, roots: Iterable[int] = ()) -> set[int]:
    """The actions from which the answer or a root can be reached along PRODUCES/ENABLES
    (action -PRODUCES-> information -ENABLES-> action), the roots and the answer included:
    what `seekgraph/cypher/clipper/find_answer_ancestors.cypher` returns for the stored graph, computed
    on the graph in memory. O(edges).

    >>> g = StateGraph(produces=[{"q"}, {"x"}, {"y"}, set()], enables=[set(), {"q"}, set(), {"x"}])
    >>> sorted(answer_ancestors(g))
    [0, 1, 3]
    """
    producers = producers_by_info(graph)
    reached = {graph.answer, *roots}
    todo = list(reached)
    while todo:
        b = todo.pop()
        for info in graph.enables[b]:
            for a in producers.get(info, []):
                if a not in reached:
                    reached.add(a)
                    todo.append(a)
    return reached
