"""A fingerprint of a whole graph: every node (labels and properties) and every relationship
(type, end nodes, properties), with run-dependent properties (timestamps, durations, stage
runs, leases of workers) left out, so two builds from the same input can be compared exactly.

Each digest keeps a short description of what it stands for, so a failing comparison names
the nodes and relationships on either side (by label and key) in a few lines, not as two
multisets of hashes."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Any, NamedTuple

import neo4j

SKIPPED_LABELS = frozenset(["StageRun", "SchemaVersion", "Lease"])
EXAMPLES = 6  # differing nodes and relationships named per side in a difference


class Fingerprint(NamedTuple):
    """Nodes and relationships as multisets of digests, and what each digest describes."""

    nodes: Counter[str]
    rels: Counter[str]
    about: dict[str, tuple[str, str]]  # digest -> (labels or type, description)


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


def _name(node: dict[str, Any]) -> str:
    """`Label{...}` with the node's id-like properties, or with all of them when it has none
    (cut to 200 characters)."""
    keys = [k for k in node["props"] if k.endswith("_id") or k in ("id", "key", "name")]
    shown = {k: node["props"][k] for k in keys} or node["props"]
    return ":".join(node["labels"]) + json.dumps(shown, default=str, ensure_ascii=False)[:200]


NODES = (
    "MATCH (n) RETURN elementId(n) AS id, labels(n) AS labels, "
    # an embedding is a function of the page text, which is compared; leaving it out keeps
    # the streamed rows small
    "apoc.map.removeKey(properties(n), 'embedding') AS props"
)


def _rows(driver: neo4j.Driver, database: str | None, query: str) -> Any:
    with driver.session(database=database) as session:
        yield from session.run(query)


def fingerprint(driver: neo4j.Driver, database: str | None = None) -> Fingerprint:
    """The graph's nodes and relationships as multisets of digests (with descriptions)."""
    ids: dict[str, str] = {}
    names: dict[str, str] = {}
    about: dict[str, tuple[str, str]] = {}
    nodes: Counter[str] = Counter()
    for r in _rows(driver, database, NODES):
        if SKIPPED_LABELS & set(r["labels"]):
            continue
        node = _node(r["labels"], r["props"])
        digest = _digest(node)
        ids[r["id"]], names[r["id"]] = digest, _name(node)
        about[digest] = (
            ":".join(node["labels"]),
            json.dumps(node, default=str, ensure_ascii=False)[:300],
        )
        nodes[digest] += 1
    rels: Counter[str] = Counter()
    query = (
        "MATCH (a)-[x]->(b) RETURN elementId(a) AS a, type(x) AS type, properties(x) AS props, "
        "elementId(b) AS b"
    )
    for r in _rows(driver, database, query):
        if r["a"] not in ids or r["b"] not in ids:
            continue
        props = {k: v for k, v in sorted(r["props"].items()) if not _volatile(k)}
        digest = _digest([ids[r["a"]], r["type"], props, ids[r["b"]]])
        about[digest] = (
            r["type"],
            f"({names[r['a']]})-[:{r['type']} {props}]->({names[r['b']]})"[:400],
        )
        rels[digest] += 1
    return Fingerprint(nodes, rels, about)


def difference(expected: Fingerprint, actual: Fingerprint) -> str:
    """What differs, in a few lines ("" when the graphs are the same): per side, how many
    nodes by label and relationships by type, then some of them by name."""
    lines: list[str] = []
    for kind, want, got in (
        ("nodes", expected.nodes, actual.nodes),
        ("relationships", expected.rels, actual.rels),
    ):
        for side, extra, about in (
            ("only in the expected graph", want - got, expected.about),
            ("only in this graph", got - want, actual.about),
        ):
            if not extra:
                continue
            kinds = Counter(about[d][0] for d in extra.elements())
            summary = ", ".join(f"{k} {n}" for k, n in kinds.most_common(8))
            lines.append(f"{sum(extra.values())} {kind} {side}: {summary}")
            shown = sorted(extra, key=about.__getitem__)[:EXAMPLES]
            lines += [f"    {about[d][1]}" for d in shown]
    return "\n".join(lines)
