"""The prune stage's search: each extracted trajectory's graphs, searched for a minimum necessary
set of actions (restricted to the answer's ancestors), then the 2-of-3 vote."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from seekgraph.common.wire import Trajectory
from seekgraph.training.stategraph import store
from seekgraph.training.stategraph.errors import StateGraphError
from seekgraph.training.stategraph.exact import exact_necessary_actions
from seekgraph.training.stategraph.mindag import cost, necessary_actions
from seekgraph.training.stategraph.model import StateGraph, restrict
from seekgraph.training.stategraph.prune_chunks import Submitted
from seekgraph.training.stategraph.prune_config import PruneConfig
from seekgraph.training.stategraph.prune_outcome import ChunkWrites, PruneOutcome, PruneResult
from seekgraph.training.stategraph.vote import vote


@dataclass
class Prepared:
    record: store.RolloutRecord
    trajectory: Trajectory
    answer_mentions: dict[int, frozenset[str]]  # text index (0: question) -> answer keys
    answer_keys: list[str]
    required: set[int]
    graph_ids: list[str]
    failed: list[bool]  # per construction: an extraction none of whose replies parsed


def search_graph(
    graph: StateGraph, required: set[int], max_exact: int
) -> tuple[frozenset[int] | None, int | None, int | None]:
    try:
        found = necessary_actions(graph, required)
    except StateGraphError:
        return None, None, None
    try:  # the optimality-gap check, on graphs with at most `max_exact` candidates
        exact = exact_necessary_actions(graph, required, max_candidates=max_exact, known=found)
        exact_cost: int | None = cost(graph, exact)
    except StateGraphError:
        exact_cost = None
    return found, cost(graph, found), exact_cost


def prepare_extracted(
    submitted: Submitted,
    result: PruneResult,
    writes: ChunkWrites,
    rows: store.GraphRows,
) -> Iterator[tuple[Prepared, dict[str, StateGraph]]]:
    """Reject the chunk's bad trajectories, then yield each good one with its graphs as built
    (by graph id, added to `rows`), in order as its extraction comes back: the caller
    searches one while later ones are extracted."""
    for rollout_id, why in submitted.bad:
        writes.unpruned(result.report, rollout_id, "bad_format", why)
        result.outcomes.append(PruneOutcome(rollout_id, "unpruned", "bad_format"))
    complete, done = submitted.complete, submitted.extractions
    for record, extraction in zip(complete, done, strict=True):
        graphs = extraction.graphs
        gids = [rows.add(record.rollout_id, record.trajectory, g) for g in graphs]
        prepared = Prepared(
            record,
            record.trajectory,
            extraction.answer_mentions,
            extraction.answer_keys,
            extraction.required,
            gids,
            [g.extraction_failed for g in graphs],
        )
        yield prepared, dict(zip(gids, graphs, strict=True))


def search_and_vote(
    p: Prepared,
    stored: Mapping[str, StateGraph],
    ancestors: dict[str, set[int]],
    config: PruneConfig,
    result: PruneResult,
    writes: ChunkWrites,
) -> tuple[Prepared, PruneOutcome, frozenset[int] | None]:
    """Search each stored graph (restricted to the answer's ancestors), then vote."""
    outcome = PruneOutcome(
        p.record.rollout_id,
        "unpruned",
        "",
        n_turns=len(p.trajectory.turns),
        answer_keys=p.answer_keys,
    )
    outcome.detour_kinds = dict(p.record.detours)
    outcome.detours = sorted(outcome.detour_kinds)
    sets: list[frozenset[int] | None] = []
    for gid, broken in zip(p.graph_ids, p.failed, strict=True):
        graph = restrict(stored[gid], ancestors.get(gid, set()))
        found, search_cost, exact_cost = (
            (None, None, None)
            if broken
            else search_graph(graph, p.required, config.exact_max_candidates)
        )
        sets.append(found)
        outcome.costs.append((search_cost, exact_cost))
        outcome.necessary_sets.append(sorted(found) if found is not None else None)
        writes.necessary.append(
            {
                "graph_id": gid,
                "necessary": sorted(found or []),
                "cost": search_cost,
                "exact_cost": exact_cost,
            }
        )
    decision = vote(sets)
    if decision.accepted is None:
        outcome.reason = decision.reason
        writes.unpruned(result.report, p.record.rollout_id, decision.reason, decision.detail)
    else:
        p.graph_ids = [p.graph_ids[i] for i in decision.agreeing]
    return p, outcome, decision.accepted
