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

This module is the stage's driver; its phases live beside it: `prune_config` (the settings),
`prune_chunks` (claiming, reading, extraction and writing of chunks), `prune_search` (search and
vote), `prune_output` (the pruned trajectory, its rewritten thoughts and its row),
`prune_outcome` (what is recorded) and `prune_models` (the model-backed extractors and rewriter).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from contextlib import ExitStack
from typing import Any

import neo4j

from seekgraph.graphdb.cypher import batched
from seekgraph.graphdb.leases import Leases
from seekgraph.graphdb.stages import StageReport, unsaved_rejections, write_rejections
from seekgraph.training.stategraph import store
from seekgraph.training.stategraph.extraction import Extractions, Extractor, default_processes
from seekgraph.training.stategraph.model import StateGraph, answer_ancestors
from seekgraph.training.stategraph.prune_chunks import (
    ChunkReader,
    ChunkWriter,
    ClaimedChunk,
    Submitted,
    claim_chunk,
    releaser,
    send_to_extraction,
)
from seekgraph.training.stategraph.prune_config import PruneConfig
from seekgraph.training.stategraph.prune_models import default_extractor
from seekgraph.training.stategraph.prune_outcome import (
    ChunkWrites,
    PruneResult,
    construction_agreement,
)
from seekgraph.training.stategraph.prune_output import finish_pruned
from seekgraph.training.stategraph.prune_search import Prepared, prepare_extracted, search_and_vote


def prune_rollouts(
    driver: neo4j.Driver,
    database: str | None,
    config: PruneConfig,
    *,
    extractor: Extractor | None = None,
    rewriter: Any = None,
    on_progress: Callable[[int], None] | None = None,
    on_start: Callable[[int], None] | None = None,
    on_doing: Callable[[str], None] | None = None,
    leases: Leases | None = None,
) -> PruneResult:
    """Run the stage over the graph; see the module docstring. Returns report and outcomes.

    With `leases`, a chunk's trajectories are pruned only by the worker that claims them;
    the others count them as skipped (``held by other workers``). `on_doing` hears what one
    slow trajectory is busy with (an LLM rewrite), for the stage's progress line."""
    report = StageReport("prune")
    extract = extractor or default_extractor(config)
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

    def run_claimed(claimed: ClaimedChunk) -> None:
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
                    on_doing,
                )
            else:
                claimed.release()
        except BaseException:
            claimed.release()
            raise
        if on_progress is not None:
            on_progress(claimed.size - reported[0])

    extractions = Extractions(extract, min(processes, len(todo)))  # forks: before threads
    writer = ChunkWriter(background=config.graph_search == "memory")
    reader = ChunkReader(driver, database, list(batched(todo, config.chunk_size)))
    # One chunk ahead: a chunk is claimed and sent to extraction before the one before it is
    # searched and written, so the extraction processes work while the stage waits on Neo4j.
    ahead: ClaimedChunk | None = None

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
            mine = set(claim_chunk(driver, database, config, chunk, leases))
            if len(mine) < len(chunk):
                report.skip(len(chunk) - len(mine))
                report.count("held by other workers", len(chunk) - len(mine))
            release = releaser(leases, chunk)
            try:
                submitted = (
                    send_to_extraction([r for r in records if r.rollout_id in mine], extractions)
                    if mine
                    else None
                )
            except BaseException:
                release()
                raise
            behind, ahead = ahead, ClaimedChunk(len(chunk), submitted, release)
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


def _run_chunk(
    driver: neo4j.Driver,
    database: str | None,
    config: PruneConfig,
    submitted: Submitted,
    rewriter_box: list[Any],
    result: PruneResult,
    on_item: Callable[[], None] | None,
    writer: ChunkWriter,
    release: Callable[[], None],
    on_doing: Callable[[str], None] | None = None,
) -> None:
    """Prune one chunk sent to extraction: search and vote, build what passes (`on_item`
    after each trajectory, `on_doing` while an LLM rewrites one: minutes on a CPU); its writes
    go to `writer`, which gives the chunk's leases back (`release`) once they are written."""
    started = time.perf_counter()
    writes = ChunkWrites()
    rows = store.GraphRows()
    extracted = prepare_extracted(submitted, result, writes, rows)

    def done(p: Prepared, stored: Mapping[str, StateGraph], ancestors: dict[str, set[int]]) -> None:
        p, outcome, accepted = search_and_vote(p, stored, ancestors, config, result, writes)
        if accepted is not None:
            finish_pruned(p, outcome, accepted, config, rewriter_box, result, writes, on_doing)
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
