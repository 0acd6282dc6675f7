"""Judge one set of state-graph constructions of a trajectory, in memory (no writes).

Used by `bench.bench_prune --llm` to compare the LLM extractor with the rule-based one on the
same trajectories without touching what the prune stage stored: each construction goes through
the same steps as in the stage (backward reachability from the answer and the required actions,
the necessary-set search, the 2-of-3 vote, the answer-entity check), and the result says what a
pruning with these graphs would remove, so it can be scored against the recorded detours.

Example::

    >>> g = StateGraph(produces=[{"q"}, {"x"}, {"y"}, set()], enables=[set(), {"q"}, {"q"}, {"x"}])
    >>> sorted(ancestors(g, {3}))
    [0, 1, 3]
    >>> jaccard(frozenset({1, 2}), frozenset({2, 3}))
    0.3333333333333333
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from seekgraph.common.wire import Trajectory
from seekgraph.training.stategraph.errors import StateGraphError
from seekgraph.training.stategraph.extract_rules import Lexicon
from seekgraph.training.stategraph.mindag import necessary_actions
from seekgraph.training.stategraph.model import StateGraph, restrict
from seekgraph.training.stategraph.vote import vote


@dataclass(frozen=True)
class GraphStats:
    """Size of one construction; `calls`/`parse_failures` only for LLM graphs (else 0)."""

    infos: int
    produces: int
    enables: int
    answer_needs: int = 0  # information the answer action relies on
    calls: int = 0
    parse_failures: int = 0


@dataclass
class Judgement:
    """What a pruning with these constructions would do (see the module docstring)."""

    sets: list[frozenset[int] | None]
    accepted: frozenset[int] | None
    reason: str  # accepted | no_majority | extraction_failed
    stats: list[GraphStats]
    removed: list[int] = field(default_factory=list)  # turns an accepted set drops
    answer_kept: bool = True  # the kept observations still mention every answer entity


def ancestors(graph: StateGraph, roots: Iterable[int]) -> set[int]:
    """Actions that reach a root backwards along enables/produces (time ignored, as the Cypher
    query `clipper/find_answer_ancestors` does). O(edges · producers)."""
    seen = set(roots)
    stack = list(seen)
    while stack:
        action = stack.pop()
        for info in graph.enables[action]:
            for producer in graph.producers(info):
                if producer not in seen:
                    seen.add(producer)
                    stack.append(producer)
    return seen


def jaccard(a: frozenset[int], b: frozenset[int]) -> float:
    """|a ∩ b| / |a ∪ b|; 1.0 for two empty sets."""
    union = a | b
    return len(a & b) / len(union) if union else 1.0


def stats_of(graph: StateGraph) -> GraphStats:
    produces, enables = graph.edge_count()
    calls = graph.notes.get("calls", 0)
    failures = graph.notes.get("parse_failures", 0)
    return GraphStats(
        infos=len(graph.infos),
        produces=produces,
        enables=enables,
        answer_needs=len(graph.enables[graph.answer]),
        calls=calls if isinstance(calls, int) else 0,
        parse_failures=failures if isinstance(failures, int) else 0,
    )


def judge(
    trajectory: Trajectory,
    lexicon: Lexicon,
    graphs: Sequence[StateGraph],
    required: set[int],
    answer_keys: Iterable[str],
) -> Judgement:
    """Search each graph (restricted to the answer's ancestors), vote, and check the answer."""
    sets: list[frozenset[int] | None] = []
    for graph in graphs:
        roots = {graph.answer, *required}
        if graph.extraction_failed:  # no reply parsed: a failed construction, as in the stage
            sets.append(None)
            continue
        try:
            sets.append(necessary_actions(restrict(graph, ancestors(graph, roots)), required))
        except StateGraphError:
            sets.append(None)
    decision = vote(sets)
    out = Judgement(sets, decision.accepted, decision.reason, [stats_of(g) for g in graphs])
    if decision.accepted is not None:
        kept = decision.accepted
        out.removed = [t.index for t in trajectory.turns if t.index not in kept]
        kept_info = " ".join(
            [trajectory.question]
            + [t.observation or "" for t in trajectory.turns if t.index in kept]
        )
        out.answer_kept = set(answer_keys) <= lexicon.mentions(kept_info)
    return out
