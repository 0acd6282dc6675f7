"""The 2-of-3 vote: accept a pruning only when two constructions agree on the necessary set.

Each construction (a granularity of the rule extractor, or one run of the LLM extractor) yields
a necessary action set, or fails. The vote accepts the set at least `quorum` constructions
produced exactly; otherwise the trajectory stays unpruned and the outcome says why:
``no_majority`` (all sets differ) or ``extraction_failed`` (too few constructions succeeded).

Example::

    >>> vote([frozenset({0, 2, 5}), frozenset({0, 2, 5}), frozenset({0, 1, 2, 5})]).accepted
    frozenset({0, 2, 5})
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class VoteOutcome:
    accepted: frozenset[int] | None
    agreeing: tuple[int, ...]  # positions of the constructions that gave the accepted set
    reason: str  # "accepted", "no_majority" or "extraction_failed"
    detail: str


def vote(sets: Sequence[frozenset[int] | None], quorum: int = 2) -> VoteOutcome:
    """Majority over the constructions' necessary sets (None marks a failed construction)."""
    counts = Counter(s for s in sets if s is not None)
    shown = "; ".join(
        f"run {i}: {sorted(s) if s is not None else 'failed'}" for i, s in enumerate(sets)
    )
    if not counts:
        return VoteOutcome(None, (), "extraction_failed", shown)
    best, n = max(counts.items(), key=lambda kv: (kv[1], -len(kv[0]), sorted(kv[0])))
    if n >= quorum:
        agreeing = tuple(i for i, s in enumerate(sets) if s == best)
        return VoteOutcome(best, agreeing, "accepted", shown)
    failed = sum(1 for s in sets if s is None)
    reason = "extraction_failed" if len(sets) - failed < quorum else "no_majority"
    return VoteOutcome(None, (), reason, shown)
