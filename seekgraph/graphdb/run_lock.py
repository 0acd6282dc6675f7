"""The graph's run lock: one run at a time rewrites the parts every run shares.

Stages such as ingest delete and rewrite a table's rows, columns and facts; two runs doing it
at once on one graph delete what the other is writing (``EntityNotFound``). Such a stage is
marked ``Stage(locks_graph=True)`` and runs inside `RunLock.held`: it takes one
``(:RunLock {name: 'graph'})`` node first (owner, host, pid, stage, start time, heartbeat),
waits while another run holds it (saying who, every `SAY_EVERY` seconds), stops with one line
naming the holder when the wait runs out, and deletes the node when it is done, also after an
error. A holder that died without releasing is recognised and replaced: on this host when its
pid is gone, on any host when its heartbeat is older than `stale_seconds`.

Per-item work (rollouts, pruning) does not take it: those stages split items with leases
(`seekgraph.graphdb.leases`), which let several workers run side by side.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import neo4j

from seekgraph.graphdb import cypher
from seekgraph.graphdb.errors import GraphDBError
from seekgraph.graphdb.leases import gone_from_this_host, worker_id

LOCK_NAME = "graph"
SAY_EVERY = 10.0  # seconds between "still waiting" lines


class GraphLockedError(GraphDBError):
    """Another run held the graph's run lock for longer than this run would wait."""


def describe_holder(row: dict[str, Any]) -> str:
    """``stage ingest of pid 123 on host h since 2026-...`` for a lock row."""
    return (
        f"stage {row.get('stage')} of pid {row.get('pid')} on host {row.get('host')} "
        f"since {str(row.get('since') or '?')[:19]}"
    )


def owner_host_and_pid(owner: str) -> tuple[str, int]:
    """The host and pid an owner name (``host:pid:random``, `worker_id`) stands for; this
    process's for a name of another form."""
    parts = owner.rsplit(":", 2)
    if len(parts) == 3 and parts[1].isdigit():
        return parts[0], int(parts[1])
    return socket.gethostname(), os.getpid()


@dataclass
class RunLock:
    """The run lock as `owner` (host:pid:random of this run) takes it for `stage`."""

    driver: neo4j.Driver
    database: str | None
    stage: str
    wait_seconds: float = 300.0
    stale_seconds: float = 300.0
    echo: Callable[[str], None] = print
    owner: str = field(default_factory=worker_id)
    name: str = LOCK_NAME

    def try_acquire(self) -> dict[str, Any]:
        """One attempt: the lock row after it (`mine` says whether this run holds it now).

        A holder from this host whose process is gone is passed as dead, so the same
        transaction that finds it still holding replaces it."""
        holder = self.holder()
        dead = ""
        if holder is not None and holder["owner"] != self.owner:
            dead = str(holder["owner"]) if gone_from_this_host(str(holder["owner"])) else ""
        host, pid = owner_host_and_pid(self.owner)
        rows = cypher.write(
            self.driver,
            "graphdb/acquire_run_lock",
            database=self.database,
            lock=self.name,
            owner=self.owner,
            host=host,
            pid=pid,
            stage=self.stage,
            stale_ms=int(self.stale_seconds * 1000),
            dead_owner=dead,
        )
        row = rows[0]
        broken = row.get("broken")
        if row["mine"] and broken:
            why = (
                "its process is gone"
                if broken["owner"] == dead
                else f"no heartbeat for {broken['age_ms'] / 1000:.0f}s"
            )
            self.echo(f"broke the graph lock of a dead run ({describe_holder(broken)}): {why}")
        return row

    def acquire(self) -> None:
        """Take the lock, waiting up to `wait_seconds` (a line names the holder at first, when
        it changes, and every `SAY_EVERY` seconds); raises `GraphLockedError` naming the
        holder when it is still held then."""
        started = time.monotonic()
        said, told = -SAY_EVERY, ""  # when the last line was said, and about which holder
        while True:
            row = self.try_acquire()
            if row["mine"]:
                if told:
                    self.echo(
                        f"took the graph lock after waiting {time.monotonic() - started:.0f}s"
                    )
                return
            waited = time.monotonic() - started
            if waited >= self.wait_seconds:
                raise GraphLockedError(
                    f"another run holds the graph: {describe_holder(row)}; "
                    f"{self.stage} gave up after waiting {waited:.0f}s",
                    hint="let it finish and re-run, or wait longer with [neo4j] lock_wait_seconds",
                )
            if waited - said >= SAY_EVERY or row["owner"] != told:
                said, told = waited, str(row["owner"])
                self.echo(
                    f"waiting for the graph lock held by {describe_holder(row)} "
                    f"({waited:.0f}s of {self.wait_seconds:.0f}s)"
                )
            time.sleep(min(1.0, max(0.05, self.wait_seconds - waited)))

    def release(self) -> None:
        """Give the lock back (a lock another run took over is left alone)."""
        cypher.write(
            self.driver,
            "graphdb/release_run_lock",
            database=self.database,
            lock=self.name,
            owner=self.owner,
        )

    def beat(self) -> bool:
        """Move the heartbeat on; False when this run no longer holds the lock."""
        rows = cypher.write(
            self.driver,
            "graphdb/beat_run_lock",
            database=self.database,
            lock=self.name,
            owner=self.owner,
        )
        return bool(rows and rows[0]["held"])

    def holder(self) -> dict[str, Any] | None:
        """Who holds the lock now (None: nobody)."""
        rows = cypher.read(
            self.driver, "graphdb/find_run_lock", database=self.database, lock=self.name
        )
        return rows[0] if rows else None

    @contextmanager
    def held(self) -> Iterator[None]:
        """Hold the lock while the body runs, its heartbeat moving every
        `stale_seconds` / 10 (at least every 30 s), released afterwards, also on error."""
        self.acquire()
        stop = threading.Event()
        period = min(30.0, max(0.2, self.stale_seconds / 10))

        def beat() -> None:
            while not stop.wait(period):
                # a lost connection: the stage itself fails or retries
                with contextlib.suppress(neo4j.exceptions.Neo4jError, neo4j.exceptions.DriverError):
                    self.beat()

        thread = threading.Thread(target=beat, name=f"run lock {self.stage}", daemon=True)
        thread.start()
        try:
            yield
        except BaseException:
            stop.set()
            thread.join()
            # the body's error is the one to show; a lock left behind by a lost connection is
            # broken by the next run (this pid gone, or no heartbeat)
            with contextlib.suppress(neo4j.exceptions.Neo4jError, neo4j.exceptions.DriverError):
                self.release()
            raise
        stop.set()
        thread.join()
        self.release()
