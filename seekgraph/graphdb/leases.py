"""Leases: a worker claims a work item in the graph before doing it.

Several workers (processes or machines) on one graph each walk the same list of pending items;
`Leases.claim` hands each item to exactly one of them, so together they do every item once and
split the work as they go. A lease lives ``seconds`` (server clock); a killed worker's items
become claimable when its leases expire, at once for a re-run on the same host (the owner's pid
is gone), and a finished item's lease is released. A worker
re-checks after claiming that the item is still undone (another worker may have finished and
released it in between), so the pattern is::

    for item in pending:
        if leases.claim([item]) and not finished(item):
            do(item)
        leases.release([item])
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import neo4j

from seekgraph.graphdb import cypher


def worker_id() -> str:
    """A name for this process that no other worker shares: host, pid and a random part."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


@dataclass
class Leases:
    """The leases one worker holds for one stage's items (keys are the items' ids)."""

    driver: neo4j.Driver
    database: str | None
    stage: str
    seconds: float = 900.0
    owner: str = field(default_factory=worker_id)

    _checked_dead: bool = field(default=False, repr=False)

    def claim(self, items: Iterable[str]) -> list[str]:
        """The items now held by this worker (free, expired or already ours)."""
        keys = list(items)
        if not keys:
            return []
        if not self._checked_dead:
            self.free_dead_workers()
        rows = self._run("stages/claim_leases", keys, ttl_ms=int(self.seconds * 1000))
        return [r["item"] for r in rows if r["mine"]]

    def release(self, items: Iterable[str]) -> None:
        """Give the items back (done or failed); leases of other workers are untouched."""
        keys = list(items)
        if keys:
            self._run("stages/release_leases", keys)

    def free_dead_workers(self) -> list[str]:
        """Delete this stage's leases held by workers of this host whose process is gone
        (killed); returns their owner names. Other hosts' leases wait for their expiry."""
        self._checked_dead = True
        dead = sorted(
            {
                r["owner"]
                for r in list_leases(self.driver, self.database, self.stage)
                if gone_from_this_host(r["owner"])
            }
        )
        if dead:
            cypher.write(
                self.driver,
                "stages/delete_leases_of_owners",
                database=self.database,
                stage=self.stage,
                owners=dead,
            )
        return dead

    def _run(self, name: str, keys: list[str], **params: Any) -> list[dict[str, Any]]:
        return cypher.write(
            self.driver,
            name,
            database=self.database,
            keys=keys,
            stage=self.stage,
            owner=self.owner,
            **params,
        )


def gone_from_this_host(owner: str) -> bool:
    """`owner` (``host:pid:random``) names a process of this host that no longer runs."""
    parts = owner.rsplit(":", 2)
    if len(parts) != 3 or parts[0] != socket.gethostname() or not parts[1].isdigit():
        return False
    try:
        os.kill(int(parts[1]), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def list_leases(
    driver: neo4j.Driver, database: str | None = None, stage: str | None = None
) -> list[dict[str, Any]]:
    """Leases per stage and worker, with how many have expired."""
    return cypher.read(driver, "stages/find_leases", database=database, stage=stage)
