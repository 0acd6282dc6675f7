"""One trajectory's extraction: its state graphs and answer entities, in the stage's process
or in worker processes.

Extraction is pure Python over a trajectory's texts (the rule extractor compiles a pattern of
the trajectory's lexicon and reads every text at three granularities): it holds the GIL for
two thirds of the prune stage. With `processes` > 1 it runs in worker processes while the
stage's own process reads the next chunk, searches, votes and writes. Results come back in the
order of the trajectories, so the graph written is the same whatever the number of processes.

The workers are forked when the pool is made, before the stage starts its reader and writer
threads: a fork copies the parent, where a spawned worker imports the caller's main module
again (two seconds for the CLI or a bench, more than the extraction of a small run). A worker
runs only this module's pure-Python code and leaves the inherited driver alone. A worker whose
stage was killed (kill -9 leaves no time to shut the pool down) exits within a second: it
watches its parent.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import partial

from seekgraph.common.wire import Trajectory
from seekgraph.training.stategraph.errors import ExtractionWorkerError
from seekgraph.training.stategraph.extract_rules import (
    LexEntry,
    Lexicon,
    extract_rule_graphs,
    first_introducers,
    returned_texts,
    text_mentions,
)
from seekgraph.training.stategraph.model import StateGraph

Extractor = Callable[[Trajectory, Lexicon], list[StateGraph]]


@dataclass
class Extraction:
    """What the stage needs of one trajectory after its extraction (no lexicon: rebuilding
    one costs as much as the extraction's pattern)."""

    graphs: list[StateGraph]
    answer_keys: list[str]  # entities/values the answer mentions that some text introduced
    required: set[int]  # the turns that first introduced them
    # per text (0: the question, t: turn t's observation): the answer keys it mentions
    answer_mentions: dict[int, frozenset[str]]


def rule_extractor(trajectory: Trajectory, lexicon: Lexicon) -> list[StateGraph]:
    """The rule extractor's three granularities (a module-level function: workers import this
    light module by name, not the stage's)."""
    return extract_rule_graphs(trajectory, lexicon)


def answer_entities(trajectory: Trajectory, lexicon: Lexicon) -> tuple[list[str], set[int]]:
    """Entities/values the final answer mentions that some observation introduced, and the turns
    that first introduced them (the actions a pruning must keep)."""
    mentioned = text_mentions(lexicon, trajectory.answer)
    firsts = first_introducers(trajectory, lexicon, mentioned)
    return sorted(firsts), {t for t in firsts.values() if t > 0}


def extract_trajectory(
    extract: Extractor, trajectory: Trajectory, entries: Sequence[LexEntry]
) -> Extraction:
    """The state graphs of `trajectory` and its answer entities (the lookups of the answer
    and of each text come after the extraction, so they reuse its cache)."""
    lexicon = Lexicon(list(entries))
    graphs = extract(trajectory, lexicon)
    keys, required = answer_entities(trajectory, lexicon)
    wanted = set(keys)
    texts = list(
        zip([0, *(t.index for t in trajectory.turns)], returned_texts(trajectory), strict=True)
    )
    mentions = {i: frozenset(text_mentions(lexicon, text) & wanted) for i, text in texts}
    return Extraction(graphs, keys, required, mentions)


MAX_DEFAULT_PROCESSES = 8  # past this the stage's own process (search, writes) is the bound


def default_processes() -> int:
    """One per CPU core this process may run on, at most `MAX_DEFAULT_PROCESSES`."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return min(cores, MAX_DEFAULT_PROCESSES)


class Extractions:
    """Runs `extract_trajectory` over a chunk's trajectories, in order: in this process
    (`processes` <= 1, or where processes cannot be forked) or in a pool of that many forked
    processes (`extract` must then be a module-level function, which pickles by name). Make
    it before starting threads: its workers are forked here."""

    def __init__(self, extract: Extractor, processes: int) -> None:
        self._work = partial(extract_trajectory, extract)
        forkable = "fork" in multiprocessing.get_all_start_methods()
        self.processes = max(1, processes) if forkable else 1
        self._pool: Executor | None = None
        if self.processes > 1:
            context = multiprocessing.get_context("fork")
            self._pool = ProcessPoolExecutor(
                self.processes,
                mp_context=context,
                initializer=_exit_with_parent,
                initargs=(os.getpid(),),
            )
            self._pool.submit(os.getpid).result()  # a forking pool starts all its workers now

    def map(self, items: Sequence[tuple[Trajectory, Sequence[LexEntry]]]) -> Iterator[Extraction]:
        """The extractions of `items`, in order, each as soon as it is done (all are sent to
        the workers at once)."""
        trajectories = [t for t, _ in items]
        lexicons = [lex for _, lex in items]
        if self._pool is None:
            return map(self._work, trajectories, lexicons)
        # a few trajectories per message: fewer round trips, still an even split
        size = max(1, len(items) // (4 * self.processes))
        return _reported(self._pool.map(self._work, trajectories, lexicons, chunksize=size))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)


def _exit_with_parent(parent: int) -> None:
    """In a worker: exit once the stage that forked it is gone (the worker is then another
    process's child), so a killed stage leaves no worker waiting for work forever."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def _reported(results: Iterator[Extraction]) -> Iterator[Extraction]:
    """`results`, with a worker's death told as the stage's own error (one line, no traceback)."""
    try:
        yield from results
    except BrokenProcessPool as e:
        raise ExtractionWorkerError(
            "an extraction worker process died (killed, or out of memory?); nothing of this "
            "chunk was written: run the stage again, with --extract-processes 1 to extract in "
            "the stage's own process"
        ) from e
