"""The prune stage: state graphs → minimum necessary DAG (by Cypher + search) → vote → rewrite.

For each trajectory (a `Rollout` kept by the filter, not pruned yet):

1. parse its Tongyi messages (bad ones are rejected with ``bad_format``);
2. build three state graphs (rule extractor at three granularities, or three LLM runs) and
   write them to Neo4j (`StateGraph`, `Action`, `Information`, `PRODUCES`, `ENABLES`; the
   information some action relies on, see `store.GraphRows`; a graph stored as built already
   is not written again);
3. per stored graph: Cypher finds the actions that can reach the answer (backward reachability
   over PRODUCES/ENABLES), the stored graph restricted to them is read back as plain data and
   `mindag.necessary_actions` searches it; the exact solver's cost is recorded when small;
4. the 2-of-3 vote accepts a necessary set or keeps the trajectory unpruned with the reason;
5. the actions that first produced an answer entity are required in every search, so a pruned
   trajectory never drops them, and the kept observations are checked to still mention every
   answer entity;
6. thoughts whose context lost pruned steps are rewritten (`rewrite.Rewriter`), the result is
   validated in the wire format and stored as ``(:Rollout {pruned: true})-[:PRUNED_FROM]->``
   its original, ``-[:PRUNED_BY]->`` the agreeing graphs, with rounds and tokens before/after.

The next chunk's trajectories are read in a thread while the current chunk is extracted and
searched. The rule extractor runs in forked worker processes (`extraction.Extractions`, one per
core by default), and a chunk is claimed and sent to them before the chunk before it is
searched and written, so they extract while the stage waits on Neo4j (a failure gives both
chunks' claims back). With ``graph_search = memory`` step 3 runs on the graphs as built, each
trajectory as soon as its graphs come back, and a chunk's writes go to the graph in a thread of
their own while the next chunk is extracted and searched.
The original gets ``prune_status`` (``pruned``, ``minimal`` or ``unpruned``) last, so a re-run
skips finished trajectories and redoes an interrupted chunk (all writes are MERGE). Several
workers on one graph split the chunks: each claims a chunk's trajectories (`seekgraph.graphdb.leases`)
before pruning them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import neo4j

from seekgraph.agent.store import step_rows
from seekgraph.common.config import option
from seekgraph.common.wire import Trajectory, WireFormatError, check_complete
from seekgraph.graphdb.cypher import batched
from seekgraph.graphdb.leases import Leases
from seekgraph.graphdb.stages import StageReport, unsaved_rejections, write_rejections
from seekgraph.training.stategraph import store
from seekgraph.training.stategraph.errors import StateGraphError
from seekgraph.training.stategraph.exact import exact_necessary_actions
from seekgraph.training.stategraph.extract_rules import Lexicon
from seekgraph.training.stategraph.extraction import (
    Extraction,
    Extractions,
    Extractor,
    default_processes,
    rule_extractor,
)
from seekgraph.training.stategraph.mindag import cost, necessary_actions
from seekgraph.training.stategraph.model import StateGraph, answer_ancestors, restrict
from seekgraph.training.stategraph.vote import vote

EXTRACTORS = ("rule", "mixed", "llm")


@dataclass(frozen=True)
class PruneConfig:
    """Settings of the `prune` stage (config section ``[prune]``; flags override)."""

    extractor: str = option(
        "rule",
        "State-graph constructions for the vote: rule (the rule extractor at three evidence "
        "granularities), mixed (three different readings: entity rules, an embedding matcher "
        "and a constrained LLM choice on --extractor-backend) or llm (three runs of free-form "
        "JSON extraction on --extractor-backend).",
        choices=EXTRACTORS,
    )
    extractor_backend: str = option(
        "transformers", "LLM spec for the llm and mixed extractors (mixed: transformers only)."
    )
    embedding_threshold: float = option(
        0.5, "mixed: cosine at which a claim relies on an observation unit.", min=-1, max=1
    )
    rewrite: bool = option(True, "Rewrite thoughts whose context lost pruned steps.")
    rewrite_backend: str = option("transformers", "LLM spec that writes rewrite candidates.")
    rewrite_limit: int = option(
        2,
        "Rewrite the thoughts of at most this many pruned trajectories per run (-1: all); the "
        "rest are stored with rewrite_status not_rewritten (CPU generation takes minutes each).",
        min=-1,
    )
    n_candidates: int = option(3, "Rewrite candidates per thought.", min=1, max=16)
    max_new_tokens: int = option(64, "Length limit of one rewrite candidate.", min=8, max=1024)
    chunk_size: int = option(50, "Trajectories per write batch.", min=1)
    graph_search: str = option(
        "cypher",
        "Where the answer's ancestors are found before the search: cypher (a query over the "
        "stored graphs, read back) or memory (the same reachability on the graphs as built: "
        "no round trip, for large runs; the graphs are stored either way).",
        choices=("cypher", "memory"),
    )
    include_unfiltered: bool = option(False, "Also prune rollouts the filter did not keep.")
    rollout_ids: tuple[str, ...] = option((), "Only these rollout ids (repeatable).")
    limit: int = option(0, "At most this many trajectories (0: all).", min=0)
    extract_processes: int = option(
        0,
        "Processes that run the rule extractor (0: one per CPU core, at most 8; 1: the "
        "stage's own process). The llm and mixed extractors hold a model and run in the "
        "stage's process.",
        min=0,
    )
    exact_max_candidates: int = option(
        14, "Run the exact solver only on graphs this small (optimality gap).", min=0
    )
    redo: bool = option(False, "Also redo rollouts that already have a prune status (benches).")
    lease_seconds: float = option(
        1800.0,
        "How long a worker's claim on a chunk lasts; a killed worker's chunk is taken over "
        "after this.",
        min=1,
    )


@dataclass
class PruneOutcome:
    """What happened to one trajectory (plain data for the summary and the benchmark)."""

    rollout_id: str
    status: str  # pruned | minimal | unpruned
    reason: str
    n_turns: int = 0
    kept: list[int] = field(default_factory=list)  # turn indexes (1-based; the answer included)
    removed: list[int] = field(default_factory=list)
    detours: list[int] = field(default_factory=list)  # turn indexes of recorded detours
    detour_kinds: dict[int, str] = field(default_factory=dict)
    tool_calls_before: int = 0
    tool_calls_after: int = 0
    tokens_before: int = 0
    tokens_after: int = 0
    answer_keys: list[str] = field(default_factory=list)
    answer_kept: bool = True
    costs: list[tuple[int | None, int | None]] = field(default_factory=list)  # (search, exact)
    necessary_sets: list[list[int] | None] = field(default_factory=list)
    rewrite_status: str = ""
    rewritten: int = 0


@dataclass
class PruneResult:
    report: StageReport
    outcomes: list[PruneOutcome]
    seconds_graphs: float = 0.0  # build + extraction + write + search (no rewriting)
    seconds_rewrite: float = 0.0
    graphs_unchanged: int = 0  # state graphs already stored as built (not written again)
    rewrite_calls: int = 0  # pruned trajectories whose thoughts went to the rewriter


@dataclass
class _Prepared:
    record: store.RolloutRecord
    trajectory: Trajectory
    answer_mentions: dict[int, frozenset[str]]  # text index (0: question) -> answer keys
    answer_keys: list[str]
    required: set[int]
    graph_ids: list[str]
    failed: list[bool]  # per construction: an extraction none of whose replies parsed


def _search(
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


def prune_rollouts(
    driver: neo4j.Driver,
    database: str | None,
    config: PruneConfig,
    *,
    extractor: Extractor | None = None,
    rewriter: Any = None,
    on_progress: Callable[[int], None] | None = None,
    on_start: Callable[[int], None] | None = None,
    leases: Leases | None = None,
) -> PruneResult:
    """Run the stage over the graph; see the module docstring. Returns report and outcomes.

    With `leases`, a chunk's trajectories are pruned only by the worker that claims them;
    the others count them as skipped (``held by other workers``)."""
    report = StageReport("prune")
    extract = extractor or _default_extractor(config)
    in_workers = extractor is None and config.extractor == "rule"  # no model to hold
    processes = (config.extract_processes or default_processes()) if in_workers else 1
    candidates = store.find_rollouts(
        driver,
        database,
        include_unfiltered=config.include_unfiltered,
        rollout_ids=config.rollout_ids or None,
    )
    todo = [c["rollout_id"] for c in candidates if config.redo or c["prune_status"] is None]
    report.skip(len(candidates) - len(todo))
    if config.limit:
        todo = todo[: config.limit]
    if on_start is not None:
        on_start(len(todo))
    result = PruneResult(report, [])
    rewriter_box: list[Any] = [rewriter]
    reported = [0]  # trajectories of the current chunk already reported one by one

    def one_done() -> None:
        reported[0] += 1
        if on_progress is not None:
            on_progress(1)

    def run_claimed(claimed: _ClaimedChunk) -> None:
        """Prune a claimed chunk (if any of it is this worker's) and report its progress."""
        reported[0] = 0
        try:
            if claimed.submitted is not None:
                _run_chunk(
                    driver,
                    database,
                    config,
                    claimed.submitted,
                    rewriter_box,
                    result,
                    one_done,
                    writer,
                    claimed.release,
                )
            else:
                claimed.release()
        except BaseException:
            claimed.release()
            raise
        if on_progress is not None:
            on_progress(claimed.size - reported[0])

    extractions = Extractions(extract, min(processes, len(todo)))  # forks: before threads
    writer = _ChunkWriter(background=config.graph_search == "memory")
    reader = _ChunkReader(driver, database, list(batched(todo, config.chunk_size)))
    # One chunk ahead: a chunk is claimed and sent to extraction before the one before it is
    # searched and written, so the extraction processes work while the stage waits on Neo4j.
    ahead: _ClaimedChunk | None = None

    def give_back_ahead() -> None:
        if ahead is not None:  # claimed, never pruned: another worker may take it
            ahead.release()

    # At the end, every step runs even when one fails (a release on a lost connection leaves
    # no reader, writer or extraction process open), last registered first; a failure there
    # is raised with the stage's own failure as its context.
    with ExitStack() as cleanup:
        cleanup.callback(extractions.close)
        cleanup.callback(writer.close)
        cleanup.callback(reader.close)
        cleanup.callback(give_back_ahead)
        for chunk, records in reader:
            mine = set(_claim(driver, database, config, chunk, leases))
            if len(mine) < len(chunk):
                report.skip(len(chunk) - len(mine))
                report.count("held by other workers", len(chunk) - len(mine))
            release = _releaser(leases, chunk)
            try:
                submitted = (
                    _submit([r for r in records if r.rollout_id in mine], extractions)
                    if mine
                    else None
                )
            except BaseException:
                release()
                raise
            behind, ahead = ahead, _ClaimedChunk(len(chunk), submitted, release)
            if behind is not None:
                run_claimed(behind)
        if ahead is not None:
            behind, ahead = ahead, None
            run_claimed(behind)
    result.seconds_graphs += writer.seconds
    statuses: dict[str, int] = {}
    for o in result.outcomes:
        statuses[o.status] = statuses.get(o.status, 0) + 1
    report.notes["outcomes"] = ", ".join(f"{k}={v}" for k, v in sorted(statuses.items())) or "none"
    if result.graphs_unchanged:
        report.notes["state graphs already stored as built (not written again)"] = (
            result.graphs_unchanged
        )
    agreement = construction_agreement(result.outcomes)
    if agreement:
        report.notes["agreement (same necessary set)"] = ", ".join(
            f"{i}~{j}: {same}/{both}" for (i, j), (same, both) in sorted(agreement.items())
        )
    pruned = [o for o in result.outcomes if o.status == "pruned"]
    if pruned:
        rb = sum(o.tool_calls_before for o in pruned)
        ra = sum(o.tool_calls_after for o in pruned)
        tb = sum(o.tokens_before for o in pruned)
        ta = sum(o.tokens_after for o in pruned)
        report.notes["tool calls (pruned trajectories)"] = (
            f"{rb} -> {ra} ({100 * (ra - rb) / max(rb, 1):+.1f}%)"
        )
        report.notes["tokens (pruned trajectories)"] = (
            f"{tb} -> {ta} ({100 * (ta - tb) / max(tb, 1):+.1f}%)"
        )
        rewrites: dict[str, int] = {}
        for o in pruned:
            rewrites[o.rewrite_status] = rewrites.get(o.rewrite_status, 0) + 1
        report.notes["thoughts"] = ", ".join(f"{k}={v}" for k, v in sorted(rewrites.items()))
    return result


def construction_agreement(outcomes: list[PruneOutcome]) -> dict[tuple[int, int], tuple[int, int]]:
    """Per pair of constructions (by run): on how many trajectories both found a necessary set
    and how many of those sets were the same."""
    out: dict[tuple[int, int], tuple[int, int]] = {}
    for o in outcomes:
        sets = o.necessary_sets
        for i in range(len(sets)):
            for j in range(i + 1, len(sets)):
                if sets[i] is None or sets[j] is None:
                    continue
                same, both = out.get((i, j), (0, 0))
                out[(i, j)] = (same + (sets[i] == sets[j]), both + 1)
    return out


def _claim(
    driver: neo4j.Driver,
    database: str | None,
    config: PruneConfig,
    chunk: list[str],
    leases: Leases | None,
) -> list[str]:
    """The trajectories of `chunk` this worker prunes: those it claims that no other worker
    finished meanwhile (all of them without leases)."""
    if leases is None:
        return chunk
    claimed = set(leases.claim(chunk))
    if config.redo:
        return [r for r in chunk if r in claimed]
    rows = store.find_rollouts(
        driver, database, include_unfiltered=config.include_unfiltered, rollout_ids=chunk
    )
    undone = {r["rollout_id"] for r in rows if r["prune_status"] is None}
    return [r for r in chunk if r in claimed and r in undone]


def mixed_extractor(embedder: Any, chooser: Any, threshold: float = 0.5) -> Extractor:
    """Three genuinely different constructions: entity rules (names), an embedding matcher
    (meaning) and a constrained LLM choice (`extract_semantic`), as runs 0, 1 and 2."""
    from seekgraph.training.stategraph.extract_rules import extract_rule_graph
    from seekgraph.training.stategraph.extract_semantic import (
        extract_choice_graph,
        extract_embedding_graph,
    )

    def extract(trajectory: Trajectory, lexicon: Lexicon) -> list[StateGraph]:
        return [
            extract_rule_graph(trajectory, lexicon, "entity", run=0),
            extract_embedding_graph(trajectory, embedder, threshold=threshold, run=1),
            extract_choice_graph(trajectory, embedder, chooser, run=2),
        ]

    return extract


def _default_extractor(config: PruneConfig) -> Extractor:
    if config.extractor == "rule":
        return rule_extractor
    if config.extractor == "mixed":
        from seekgraph.common.embeddings import Embedder
        from seekgraph.common.llm.registry import load_backend
        from seekgraph.common.llm.transformers_backend import TransformersBackend
        from seekgraph.training.stategraph.extract_semantic import ChoiceModel

        backend = load_backend(config.extractor_backend)
        if not isinstance(backend, TransformersBackend):
            raise StateGraphError(
                "the mixed extractor reads a local model's logits: --extractor-backend must "
                f"be transformers[:PATH], not {config.extractor_backend!r}"
            )
        chooser = ChoiceModel(backend.model, backend.tokenizer)
        return mixed_extractor(Embedder(), chooser, config.embedding_threshold)
    from seekgraph.common.llm.registry import load_backend
    from seekgraph.training.stategraph.extract_llm import LLMExtractor

    llm = LLMExtractor(load_backend(config.extractor_backend))
    return lambda trajectory, _lexicon: llm.extract(trajectory)


def _make_rewriter(config: PruneConfig) -> Any:
    from seekgraph.common.llm.registry import load_backend
    from seekgraph.common.llm.transformers_backend import TransformersBackend
    from seekgraph.training.stategraph.rewrite import RewriteConfig, Rewriter, smollm2_scorer

    backend = load_backend(config.rewrite_backend)
    scorer_model = (
        backend if (isinstance(backend, TransformersBackend) and backend.path is None) else None
    )
    return Rewriter(
        backend,
        smollm2_scorer(scorer_model),
        RewriteConfig(n_candidates=config.n_candidates, max_new_tokens=config.max_new_tokens),
    )


@dataclass
class _Writes:
    """What one chunk writes at its end: statuses (the resume marker), necessary sets of the
    stored graphs, and the pruned rollouts."""

    statuses: list[dict[str, Any]] = field(default_factory=list)
    necessary: list[dict[str, Any]] = field(default_factory=list)
    pruned: list[dict[str, Any]] = field(default_factory=list)

    def unpruned(self, report: StageReport, rollout_id: str, reason: str, detail: str) -> None:
        report.reject(rollout_id, reason, detail)
        self.statuses.append(
            {"rollout_id": rollout_id, "status": "unpruned", "detail": f"{reason}: {detail}"}
        )


def _releaser(leases: Leases | None, chunk: list[str]) -> Callable[[], None]:
    """What gives a chunk's leases back (nothing without leases)."""
    if leases is None:
        return lambda: None
    return lambda: leases.release(chunk)


class _ChunkWriter:
    """Runs each chunk's writes, in order. With `background`, in a thread of its own while the
    next chunk is read, extracted and searched (one chunk in flight: its writes finish before
    the next chunk's start); an error in a write is raised in the stage at the next chunk or at
    the end. Each job writes its chunk's resume markers last, so a kill loses no finished
    chunk and a re-run redoes an unfinished one."""

    def __init__(self, background: bool) -> None:
        self._pool = (
            ThreadPoolExecutor(1, thread_name_prefix="prune-writer") if background else None
        )
        self._pending: Future[float] | None = None
        self.seconds = 0.0  # spent writing

    def _timed(self, job: Callable[[], None]) -> float:
        started = time.perf_counter()
        job()
        return time.perf_counter() - started

    def submit(self, job: Callable[[], None]) -> None:
        if self._pool is None:
            self.seconds += self._timed(job)
            return
        self.wait()
        self._pending = self._pool.submit(self._timed, job)

    def wait(self) -> None:
        if self._pending is not None:
            pending, self._pending = self._pending, None
            self.seconds += pending.result()

    def close(self) -> None:
        try:
            self.wait()
        finally:
            if self._pool is not None:
                self._pool.shutdown(wait=True)


class _ChunkReader:
    """Yields each chunk with its stored rollouts, reading the next chunk in a thread of its
    own while the current one is extracted and searched (reads are independent of the
    chunks' writes: other rollouts). A chunk is read whole; the caller keeps the records of
    the trajectories it claimed."""

    def __init__(self, driver: neo4j.Driver, database: str | None, chunks: list[list[str]]):
        self._read = lambda ids: store.read_rollouts(driver, database, ids)
        self._chunks = chunks
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="prune-reader")

    def __iter__(self) -> Iterator[tuple[list[str], list[store.RolloutRecord]]]:
        pending = self._pool.submit(self._read, self._chunks[0]) if self._chunks else None
        for i, chunk in enumerate(self._chunks):
            assert pending is not None
            records = pending.result()
            if i + 1 < len(self._chunks):
                pending = self._pool.submit(self._read, self._chunks[i + 1])
            yield chunk, records

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


class _ClaimedChunk(NamedTuple):
    """A chunk claimed and sent to extraction, waiting for the one before it."""

    size: int
    submitted: _Submitted | None  # None: no trajectory of it is this worker's
    release: Callable[[], None]


def _run_chunk(
    driver: neo4j.Driver,
    database: str | None,
    config: PruneConfig,
    submitted: _Submitted,
    rewriter_box: list[Any],
    result: PruneResult,
    on_item: Callable[[], None] | None,
    writer: _ChunkWriter,
    release: Callable[[], None],
) -> None:
    """Prune one chunk sent to extraction: search and vote, build what passes (`on_item`
    after each trajectory: rewriting one takes minutes on a CPU); its writes go to `writer`,
    which gives the chunk's leases back (`release`) once they are written."""
    started = time.perf_counter()
    writes = _Writes()
    rows = store.GraphRows()
    extracted = _prepare(submitted, result, writes, rows)

    def done(
        p: _Prepared, stored: Mapping[str, StateGraph], ancestors: dict[str, set[int]]
    ) -> None:
        p, outcome, accepted = _decide(p, stored, ancestors, config, result, writes)
        if accepted is not None:
            _finish(p, outcome, accepted, config, rewriter_box, result, writes)
        result.outcomes.append(outcome)
        if on_item is not None:
            on_item()

    if config.graph_search == "cypher":  # on the stored graphs, by query
        prepared = [p for p, _ in extracted]
        roots = {gid: p.required for p in prepared for gid in p.graph_ids}
        writer.wait()
        result.graphs_unchanged += store.write_graphs(driver, database, rows)
        ancestors = store.find_ancestors(driver, database, roots) if roots else {}
        stored = store.read_graphs(driver, database, list(roots))
        rows = store.GraphRows()  # written
        for p in prepared:
            done(p, stored, ancestors)
    else:  # the same answer on the graphs as built, each as soon as its extraction is back
        for p, built in extracted:
            done(p, built, {gid: answer_ancestors(g, p.required) for gid, g in built.items()})
    rejections = unsaved_rejections(result.report)
    result.seconds_graphs += time.perf_counter() - started

    def write() -> None:
        try:
            result.graphs_unchanged += store.write_graphs(driver, database, rows)
            store.write_necessary(driver, database, writes.necessary)
            store.write_pruned(driver, database, writes.pruned)
            # the statuses are the resume marker: the chunk's rejections are written before them
            write_rejections(driver, result.report.stage, rejections, database)
            store.write_status(driver, database, writes.statuses)
        finally:
            release()

    writer.submit(write)


@dataclass
class _Submitted:
    """A chunk sent to extraction: the trajectories that failed the format check, and the
    others with their extractions (coming back in order)."""

    bad: list[tuple[str, str]]  # (rollout id, why)
    complete: list[store.RolloutRecord]
    extractions: Iterator[Extraction]


def _submit(records: list[store.RolloutRecord], extractions: Extractions) -> _Submitted:
    """Check a chunk's trajectories and send the good ones to extraction: with worker
    processes they start at once, while the chunk before is still searched and written."""
    bad: list[tuple[str, str]] = []
    complete: list[store.RolloutRecord] = []
    for record in records:
        try:
            check_complete(record.trajectory)
        except WireFormatError as e:
            bad.append((record.rollout_id, str(e)))
            continue
        complete.append(record)
    return _Submitted(bad, complete, extractions.map([(r.trajectory, r.lexicon) for r in complete]))


def _prepare(
    submitted: _Submitted,
    result: PruneResult,
    writes: _Writes,
    rows: store.GraphRows,
) -> Iterator[tuple[_Prepared, dict[str, StateGraph]]]:
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
        prepared = _Prepared(
            record,
            record.trajectory,
            extraction.answer_mentions,
            extraction.answer_keys,
            extraction.required,
            gids,
            [g.extraction_failed for g in graphs],
        )
        yield prepared, dict(zip(gids, graphs, strict=True))


def _decide(
    p: _Prepared,
    stored: Mapping[str, StateGraph],
    ancestors: dict[str, set[int]],
    config: PruneConfig,
    result: PruneResult,
    writes: _Writes,
) -> tuple[_Prepared, PruneOutcome, frozenset[int] | None]:
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
            else _search(graph, p.required, config.exact_max_candidates)
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


def _finish(
    p: _Prepared,
    outcome: PruneOutcome,
    accepted: frozenset[int],
    config: PruneConfig,
    rewriter_box: list[Any],
    result: PruneResult,
    writes: _Writes,
) -> None:
    """Build, check, rewrite and queue the pruned trajectory of an accepted vote."""
    report = result.report
    rid = p.record.rollout_id
    original = p.trajectory
    kept_turns = sorted(accepted - {0})
    outcome.kept = kept_turns
    outcome.removed = [t.index for t in original.turns if t.index not in accepted]
    outcome.tool_calls_before = outcome.tool_calls_after = original.tool_calls
    outcome.tokens_before = outcome.tokens_after = original.tokens()
    if not outcome.removed:
        outcome.status, outcome.reason = "minimal", "nothing_to_prune"
        report.keep()
        writes.statuses.append(
            {"rollout_id": rid, "status": "minimal", "detail": "every action needed"}
        )
        return
    kept_texts = [0] + [t.index for t in original.turns if t.index in accepted]
    missing = sorted(set(p.answer_keys).difference(*(p.answer_mentions[i] for i in kept_texts)))
    if missing:  # cannot happen while first producers are required; checked, never assumed
        outcome.answer_kept, outcome.reason = False, "answer_entity_lost"
        writes.unpruned(report, rid, "answer_entity_lost", f"missing {missing[:10]}")
        return
    pruned, records = _rewrite(original, kept_turns, outcome, config, rewriter_box, result)
    try:
        check_complete(pruned)
    except WireFormatError as e:
        outcome.reason = "invalid_output"
        writes.unpruned(report, rid, "invalid_output", str(e))
        return
    outcome.status, outcome.reason = "pruned", "accepted"
    outcome.tool_calls_after = pruned.tool_calls
    outcome.tokens_after = pruned.tokens()
    report.keep()
    writes.pruned.append(_pruned_row(rid, original, pruned, outcome, records, p.graph_ids, config))
    removed = [t - 1 for t in outcome.removed]
    writes.statuses.append(
        {"rollout_id": rid, "status": "pruned", "detail": f"removed steps {removed}"}
    )


def _rewrite(
    original: Trajectory,
    kept_turns: list[int],
    outcome: PruneOutcome,
    config: PruneConfig,
    rewriter_box: list[Any],
    result: PruneResult,
) -> tuple[Trajectory, list[Any]]:
    """The pruned trajectory, with rewritten thoughts while the run's rewrite limit allows."""
    started = time.perf_counter()
    pruned = original.keep(kept_turns)
    records: list[Any] = []
    if config.rewrite and (config.rewrite_limit < 0 or result.rewrite_calls < config.rewrite_limit):
        result.rewrite_calls += 1
        if rewriter_box[0] is None:
            rewriter_box[0] = _make_rewriter(config)
        pruned, records = rewriter_box[0].rewrite(original, kept_turns)
        failed = sum(1 for r in records if r.status != "rewritten")
        outcome.rewritten = len(records) - failed
        outcome.rewrite_status = (
            "not_needed" if not records else "rewritten" if not failed else "rewrite_failed"
        )
    else:
        outcome.rewrite_status = "not_rewritten"
    result.seconds_rewrite += time.perf_counter() - started
    return pruned, records


def _pruned_row(
    rid: str,
    original: Trajectory,
    pruned: Trajectory,
    outcome: PruneOutcome,
    records: list[Any],
    graph_ids: list[str],
    config: PruneConfig,
) -> dict[str, Any]:
    """The `store.write_pruned` row of a pruned trajectory (node, provenance, steps)."""
    pruned_id = f"{rid}/pruned"
    rewritten = [r.turn for r in records if r.status == "rewritten"]
    return {
        "rollout_id": pruned_id,
        "original_id": rid,
        "graph_ids": graph_ids,
        "props": {
            "question": pruned.question,
            "date": pruned.date,
            "rounds": pruned.rounds,
            "rounds_before": original.rounds,
            "tool_calls": pruned.tool_calls,
            "tool_calls_before": original.tool_calls,
            "tokens": outcome.tokens_after,
            "tokens_before": outcome.tokens_before,
            "kept_steps": [t - 1 for t in outcome.kept],
            "removed_steps": [t - 1 for t in outcome.removed],
            "rewrite_status": outcome.rewrite_status,
            "rewrite_json": json.dumps([r.as_dict() for r in records], ensure_ascii=False),
            "prune_extractor": config.extractor,
        },
        "steps": step_rows(pruned_id, pruned, rewritten=rewritten),
    }
