"""A fingerprint of a whole graph: every node (labels and properties) and every relationship
(type, end nodes, properties), with run-dependent properties (timestamps, durations, stage
runs, leases of workers) left out, so two builds from the same input can be compared exactly."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Any

import neo4j

SKIPPED_LABELS = frozenset(["StageRun", "SchemaVersion", "Lease"])


def _volatile(key: str) -> bool:
    return (
        key.endswith("_at")
        or key in ("seconds", "wall_seconds", "pages_per_second", "elapsed")
        or key.endswith("_seconds")
    )


def _digest(value: Any) -> str:
    return hashlib.sha1(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()


def _node(labels: list[str], props: dict[str, Any]) -> dict[str, Any]:
    return {
        "labels": sorted(labels),
        "props": {k: v for k, v in sorted(props.items()) if not _volatile(k)},
    }


NODES = (
    "MATCH (n) RETURN elementId(n) AS id, labels(n) AS labels, "
    # an embedding is a function of the page text, which is compared; leaving it out keeps
    # the streamed rows small
    "apoc.map.removeKey(properties(n), 'embedding') AS props"
)


def _rows(driver: neo4j.Driver, database: str | None, query: str) -> Any:
    with driver.session(database=database) as session:
        yield from session.run(query)


def fingerprint(driver: neo4j.Driver, database: str | None = None) -> tuple[Counter, Counter]:
    """(nodes, relationships) as multisets of digests."""
    ids: dict[str, str] = {}
    nodes: Counter = Counter()
    for r in _rows(driver, database, NODES):
        if SKIPPED_LABELS & set(r["labels"]):
            continue
        digest = _digest(_node(r["labels"], r["props"]))
        ids[r["id"]] = digest
        nodes[digest] += 1
    rels: Counter = Counter()
    query = (
        "MATCH (a)-[x]->(b) RETURN elementId(a) AS a, type(x) AS type, properties(x) AS props, "
        "elementId(b) AS b"
    )
    for r in _rows(driver, database, query):
        if r["a"] not in ids or r["b"] not in ids:
            continue
        props = {k: v for k, v in sorted(r["props"].items()) if not _volatile(k)}
        rels[_digest([ids[r["a"]], r["type"], props, ids[r["b"]]])] += 1
    return nodes, rels


def describe(driver: neo4j.Driver, database: str | None, digests: set[str]) -> list[str]:
    """The nodes behind some digests (for a failing comparison's message)."""
    out = []
    for r in _rows(driver, database, NODES):
        if _digest(_node(r["labels"], r["props"])) in digests:
            out.append(json.dumps(_node(r["labels"], r["props"]), default=str)[:300])
    return out
