"""The held-out split, a function of the tables a task reads: no table crosses it.

A table is held out when a stable hash of its id falls in the first `heldout_percent` of 100
buckets. A task is held out iff every source table of it is held out, and train iff none is; a
task over held-out and train tables at once (a Union family that spans both) is on neither
side: the quality gate rejects it ``split_leak``. A task's sources are the tables its trees come
from (through its Biclique, or the Union task a Reverse-Union task is built from) and the tables
its KP triples name (``relation@table_id``); a KP task none of whose triples names a table falls
back to the pages its triples read (its ``urls``), hashed the same way.

Synthesis writes each task's split by this rule with `HELDOUT_PERCENT` (a task over both sides
gets ``split_leak``, so neither side takes it); the quality gate, which runs before any rollout,
decides it again on the stored graph with ``[quality] heldout_percent`` and rejects the leaks.

>>> split_of_sources(["t1"], [], 0), split_of_sources(["t1"], [], 100)
('train', 'heldout')
>>> split_of_sources([], [], 20)
'none'
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


def sources_of(row: dict[str, Any]) -> list[str]:
    """The sources the split is decided by: the task's tables, else its pages."""
    return sorted(row.get("tables") or []) or sorted(row.get("pages") or [])


def split_of_sources(tables: Sequence[str], pages: Sequence[str], heldout_percent: int) -> str:
    """``heldout`` when every source is held out, ``train`` when none is, ``split_leak`` when
    some are, ``none`` for a task without a known source (its split is left as it is)."""
    sources = sources_of({"tables": tables, "pages": pages})
    if not sources:
        return NONE
    held = [source_heldout(s, heldout_percent) for s in sources]
    return HELDOUT if all(held) else TRAIN if not any(held) else LEAK


def leak_detail(sources: Iterable[str], heldout_percent: int) -> str:
    """Which sources of a leaking task are on which side (the rejection's detail)."""
    listed = sorted(sources)
    held = [s for s in listed if source_heldout(s, heldout_percent)]
    train = [s for s in listed if not source_heldout(s, heldout_percent)]
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
