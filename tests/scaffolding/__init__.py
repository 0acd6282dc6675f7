"""Test and benchmark scaffolding: synthetic data writers, oracles and comparison harnesses.

Never imported by the library; benchmarks may import it (`python -m bench.x` from the repo root).
Its Cypher lives in `tests/scaffolding/cypher/` (not shipped with the package).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

import neo4j

from seekgraph.graphdb.cypher import batched

CYPHER = Path(__file__).resolve().parent / "cypher"


@cache
def query(name: str) -> str:
    """A scaffolding query (tests/scaffolding/cypher/<name>.cypher)."""
    return (CYPHER / f"{name}.cypher").read_text(encoding="utf-8")


def write_batches(
    driver: neo4j.Driver,
    name: str,
    rows: Iterable[dict[str, Any]],
    *,
    database: str | None = None,
    batch_size: int = 1000,
) -> int:
    """Run the `UNWIND $rows` scaffolding query `name` in write transactions of `batch_size`."""
    text = query(name)
    total = 0

    def work(tx: neo4j.ManagedTransaction, batch: list[dict[str, Any]]) -> None:
        tx.run(text, rows=batch).consume()

    with driver.session(database=database) as session:
        for batch in batched(rows, batch_size):
            session.execute_write(work, batch)
            total += len(batch)
    return total
