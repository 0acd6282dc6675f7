"""Cypher lives in `cypher/*.cypher`; this module finds a query by name, caches it, and runs batches.

Names are paths below `seekgraph/cypher/` without the suffix, e.g. ``"schema/constraints"`` or
``"leaper/merge_tables"``. Values always travel as ``$parameters``; writes go through
:func:`run_batches`, which sends ``UNWIND $rows AS row ...`` statements in fixed-size batches.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import neo4j

from seekgraph.graphdb.errors import CypherFileError

_NAME = re.compile(r"^[a-z0-9_]+(/[a-z0-9_]+)*$")
_IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")


def cypher_dir() -> Path:
    """The folder holding the `.cypher` files: the `cypher` package's data."""
    return Path(str(resources.files("seekgraph.cypher")))


@cache
def query(name: str) -> str:
    """Return the text of ``seekgraph/cypher/<name>.cypher``; raises `CypherFileError` for unknown names."""
    if not _NAME.match(name):
        raise CypherFileError(f"invalid query name {name!r}: use lower_snake path segments")
    path = cypher_dir() / f"{name}.cypher"
    if not path.is_file():
        raise CypherFileError(f"no Cypher file for query {name!r} (looked for {path})")
    text = path.read_text(encoding="utf-8").strip()
    if not text:
        raise CypherFileError(f"Cypher file {path} is empty")
    return text


def statements(name: str) -> list[str]:
    """Split a multi-statement file (schema files) on `;` at line ends; comments (`//`) dropped."""
    body = "\n".join(
        line for line in query(name).splitlines() if not line.lstrip().startswith("//")
    )
    return [part.strip() for part in re.split(r";\s*(?:\n|$)", body) if part.strip()]


def all_query_names() -> list[str]:
    """Every query name under `seekgraph/cypher/`, sorted (used by the EXPLAIN test)."""
    root = cypher_dir()
    return sorted(p.relative_to(root).with_suffix("").as_posix() for p in root.rglob("*.cypher"))


def check_identifier(name: str, allowed: Iterable[str]) -> str:
    """Validate a label or relationship type against an allow-list before formatting it in."""
    allowed_set = set(allowed)
    if not _IDENTIFIER.match(name) or name not in allowed_set:
        raise CypherFileError(
            f"{name!r} is not an allowed label/type (allowed: {sorted(allowed_set)})"
        )
    return name


def batched(rows: Iterable[Any], size: int) -> Iterator[list[Any]]:
    """Yield lists of at most `size` items."""
    batch: list[Any] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def run_batches(
    driver: neo4j.Driver,
    name: str,
    rows: Iterable[dict[str, Any]],
    *,
    database: str | None = None,
    batch_size: int = 1000,
    params: dict[str, Any] | None = None,
    on_batch: Callable[[int], None] | None = None,
) -> int:
    """Run the `UNWIND $rows` query `name` over `rows` in write transactions of `batch_size`.

    Each batch is its own transaction, retried by the driver on transient errors; the query
    must be idempotent (MERGE), so a retried or re-run batch adds nothing. Returns rows sent.
    """
    text = query(name)
    extra = dict(params or {})
    total = 0

    def work(tx: neo4j.ManagedTransaction, batch: Sequence[dict[str, Any]]) -> None:
        tx.run(text, rows=list(batch), **extra).consume()

    with driver.session(database=database) as session:
        for batch in batched(rows, batch_size):
            session.execute_write(work, batch)
            total += len(batch)
            if on_batch is not None:
                on_batch(len(batch))
    return total


_SCALARS = frozenset({str, int, float, bool, type(None)})


def plain(value: Any) -> Any:
    """A returned value as plain Python data, as `neo4j.Record.data` gives it (a node as the
    dict of its properties, a relationship as (start, type, end), a path as a list), but
    without the driver's generic transform: most values are scalars, lists and maps, and
    checking their exact type first makes reading large results several times faster."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is list:
        return [v if type(v) in _SCALARS else plain(v) for v in value]
    if kind is dict:
        return {k: v if type(v) in _SCALARS else plain(v) for k, v in value.items()}
    if isinstance(value, neo4j.graph.Node):
        return plain(dict(value))
    if isinstance(value, neo4j.graph.Relationship):
        start, end = value.start_node, value.end_node
        return (
            plain(dict(start)) if start is not None else None,
            type(value).__name__,
            plain(dict(end)) if end is not None else None,
        )
    if isinstance(value, neo4j.graph.Path):
        out: list[Any] = [plain(value.start_node)]
        for relationship, node in zip(value.relationships, value.nodes[1:], strict=True):
            out += [type(relationship).__name__, plain(node)]
        return out
    return value  # temporal values and points stay what the driver made them


def _rows(records: list[neo4j.Record]) -> list[dict[str, Any]]:
    if not records:
        return []
    keys = records[0].keys()
    return [
        {k: v if type(v) in _SCALARS else plain(v) for k, v in zip(keys, r, strict=True)}
        for r in records
    ]


def read(
    driver: neo4j.Driver, name: str, *, database: str | None = None, **params: Any
) -> list[dict[str, Any]]:
    """Run a read query by name and return its records as plain dicts (see `plain`)."""
    records, _, _ = driver.execute_query(
        query(name), params, database_=database, routing_=neo4j.RoutingControl.READ
    )
    return _rows(records)


def read_quietly(
    driver: neo4j.Driver, name: str, *, database: str | None = None, **params: Any
) -> list[dict[str, Any]]:
    """`read` without the server's notifications, as `record.data()` dicts: for readers of a
    graph some stages may not have reached yet (the report, pictures), whose queries name
    labels and properties that do not exist yet."""
    text = query(name)

    def work(tx: neo4j.ManagedTransaction) -> list[dict[str, Any]]:
        return [record.data() for record in tx.run(text, params)]

    with driver.session(
        database=database, notifications_min_severity=neo4j.NotificationMinimumSeverity.OFF
    ) as session:
        return session.execute_read(work)


def write(
    driver: neo4j.Driver, name: str, *, database: str | None = None, **params: Any
) -> list[dict[str, Any]]:
    """Run a single write query by name (one auto-retried transaction) and return its records."""
    records, _, _ = driver.execute_query(
        query(name), params, database_=database, routing_=neo4j.RoutingControl.WRITE
    )
    return _rows(records)
