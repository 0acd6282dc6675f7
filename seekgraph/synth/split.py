"""The held-out split, a function of the tables a task reads: no table crosses it.

The unit of the split is a *family of tables*: the tables a WebLeaper task reads together (a
Union family and the Reverse-Union tasks built on it) form one unit, joined transitively, and a
table no such task joins is a unit alone. A unit is held out when a stable hash of its smallest
table id falls in the first `heldout_percent` of 100 buckets, so a Union task and its tables'
Basic tasks always land on one side. A task is held out iff every source unit is held out,
train iff none is; a task over both (a KP chain from a held-out into a train table) is on
neither side: the quality gate rejects it ``split_leak``. A task's sources are the tables its
trees come from (through its Biclique, or the Union task a Reverse-Union task is built from)
and the tables its KP triples name (``relation@table_id``); a KP task none of whose triples
names a table falls back to the pages its triples read (its ``urls``), hashed the same way.

Synthesis writes a provisional split per task (its own tables only, `HELDOUT_PERCENT`); the
quality gate, which runs before any rollout and sees every task, decides it again on the stored
graph with ``[quality] heldout_percent`` and the units, and rejects the leaks.

>>> split_of_sources(["t1"], [], 0), split_of_sources(["t1"], [], 100)
('train', 'heldout')
>>> split_of_sources([], [], 20)
'none'
>>> units = source_units([{"kind": "leaper", "tables": ["b", "c"]}, {"kind": "leaper", "tables": ["a", "b"]}])
>>> units["c"], units.get("d", "d")
('a', 'd')
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any

HELDOUT, TRAIN, LEAK, NONE = "heldout", "train", "split_leak", "none"
# The share of source tables held out: synthesis writes each task's split with it, and the
# quality gate (`[quality] heldout_percent`, the one setting) decides it again on the stored graph.
HELDOUT_PERCENT = 20


def source_heldout(source_id: str, heldout_percent: int) -> bool:
    """Whether a table (or page) is held out: a stable hash of its id, never of a task's."""
    bucket = int(hashlib.sha1(source_id.encode("utf-8")).hexdigest()[:8], 16) % 100
    return bucket < heldout_percent


def source_units(rows: Iterable[dict[str, Any]]) -> dict[str, str]:
    """The unit of each table some WebLeaper task reads with others: the smallest table id of
    its family (tables joined, transitively, by a task over several of them; union-find).
    Tables outside such a family are their own unit (absent from the map: look up with
    ``units.get(table, table)``). KP tasks join no
    units: a chain may cross many tables, and one that crosses the split is a leak."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for row in rows:
        tables = sorted(row.get("tables") or [])
        if row.get("kind") != "leaper" or len(tables) < 2:
            continue
        for other in tables[1:]:
            a, b = find(tables[0]), find(other)
            if a != b:
                parent[max(a, b)] = min(a, b)
    return {table: find(table) for table in parent}


def sources_of(row: dict[str, Any]) -> list[str]:
    """The sources the split is decided by: the task's tables, else its pages."""
    return sorted(row.get("tables") or []) or sorted(row.get("pages") or [])


def split_of_sources(
    tables: Sequence[str],
    pages: Sequence[str],
    heldout_percent: int,
    units: dict[str, str] | None = None,
) -> str:
    """``heldout`` when every source (its unit, `source_units`) is held out, ``train`` when none
    is, ``split_leak`` when some are, ``none`` for a task without a known source (its split is
    left as it is)."""
    sources = sources_of({"tables": tables, "pages": pages})
    if not sources:
        return NONE
    units = units or {}
    held = [source_heldout(units.get(s, s), heldout_percent) for s in sources]
    return HELDOUT if all(held) else TRAIN if not any(held) else LEAK


def leak_detail(
    sources: Iterable[str], heldout_percent: int, units: dict[str, str] | None = None
) -> str:
    """Which sources of a leaking task are on which side (the rejection's detail)."""
    listed = sorted(sources)
    units = units or {}
    held = [s for s in listed if source_heldout(units.get(s, s), heldout_percent)]
    train = [s for s in listed if s not in held]
    return f"held-out sources {held[:5]} and train sources {train[:5]}"


def crossing_tasks(rows: Iterable[dict[str, Any]]) -> dict[str, list[str]]:
    """Train tasks that share a source with a held-out task, by task id (with the shared
    sources): what the split forbids, checked on the stored splits (``[]`` everywhere when the
    split is a function of sources)."""
    rows = list(rows)
    held = {s for r in rows if r["split"] == HELDOUT for s in sources_of(r)}
    out: dict[str, list[str]] = {}
    for r in rows:
        if r["split"] == TRAIN:
            shared = sorted(held.intersection(sources_of(r)))
            if shared:
                out[r["task_id"]] = shared
    return out
