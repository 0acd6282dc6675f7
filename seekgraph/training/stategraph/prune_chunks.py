"""The prune stage's chunks: claiming them (leases), reading the next one in a thread, checking
their trajectories and sending them to extraction, and running each chunk's writes in order."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import NamedTuple

import neo4j

from seekgraph.common.wire import WireFormatError, check_complete
from seekgraph.graphdb.leases import Leases
from seekgraph.training.stategraph import store
from seekgraph.training.stategraph.extraction import Extraction, Extractions
from seekgraph.training.stategraph.prune_config import PruneConfig


def claim_chunk(
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


def releaser(leases: Leases | None, chunk: list[str]) -> Callable[[], None]:
    """What gives a chunk's leases back (nothing without leases)."""
    if leases is None:
        return lambda: None
    return lambda: leases.release(chunk)


class ChunkWriter:
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


class ChunkReader:
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


class ClaimedChunk(NamedTuple):
    """A chunk claimed and sent to extraction, waiting for the one before it."""

    size: int
    submitted: Submitted | None  # None: no trajectory of it is this worker's
    release: Callable[[], None]


@dataclass
class Submitted:
    """A chunk sent to extraction: the trajectories that failed the format check, and the
    others with their extractions (coming back in order)."""

    bad: list[tuple[str, str]]  # (rollout id, why)
    complete: list[store.RolloutRecord]
    extractions: Iterator[Extraction]


def send_to_extraction(records: list[store.RolloutRecord], extractions: Extractions) -> Submitted:
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
    return Submitted(bad, complete, extractions.map([(r.trajectory, r.lexicon) for r in complete]))
