"""Which trajectories a dataset takes: a pure function over rollout metadata (`select`), so it is
tested without a server. Filters (split, policy, source, variant, termination, the ISR/ISE
verdict, accuracy, F1, ISR, ISE), the mix (filtered, eff, hybrid, auto), a per-task cap,
variant ratios and a total limit, every choice in a seeded hash order of rollout ids."""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from seekgraph.training.config import DatasetSpec
from seekgraph.training.errors import DatasetError


@dataclass(frozen=True)
class Candidate:
    """A finished rollout's metadata (no messages)."""

    rollout_id: str
    task_id: str
    kind: str = ""
    variant: str = ""
    split: str = "train"
    policy: str = ""
    model: str = ""
    pruned: bool = False
    original_id: str | None = None
    termination: str = "answer"
    kept: bool = True
    accuracy: float = 0.0
    f1: float = 0.0
    isr: float = 0.0
    ise: float = 0.0
    rounds: int = 0
    # original (unpruned) | not_needed | rewritten | rewrite_failed | not_rewritten: whether a
    # pruned trajectory's thoughts were rewritten where their context lost steps
    thoughts: str = "original"


STALE_THOUGHTS = frozenset({"not_rewritten", "rewrite_failed"})


@dataclass
class Selection:
    chosen: list[Candidate]
    rejected: list[tuple[str, str, str]]  # (rollout_id, reason, detail)
    mix: str  # the mix actually used (auto resolved)


def order_key(seed: int, rollout_id: str) -> str:
    """A seeded, stable pseudo-random order of rollouts."""
    return hashlib.sha1(f"{seed}:{rollout_id}".encode()).hexdigest()


def _filter_reason(c: Candidate, spec: DatasetSpec) -> tuple[str, str] | None:
    checks: list[tuple[bool, str, str]] = [
        (bool(spec.splits) and c.split not in spec.splits, "split", c.split),
        (bool(spec.policies) and c.policy not in spec.policies, "policy", c.policy),
        (bool(spec.models) and c.model not in spec.models, "model", c.model),
        (bool(spec.kinds) and c.kind not in spec.kinds, "source", c.kind),
        (bool(spec.variants) and c.variant not in spec.variants, "variant", c.variant),
        (
            bool(spec.terminations) and c.termination not in spec.terminations,
            "termination",
            c.termination,
        ),
        (spec.kept_only and not c.kept, "not_kept", "rejected by the ISR/ISE filter"),
        (c.accuracy < spec.min_accuracy, "not_correct", f"accuracy {c.accuracy:.3f}"),
        (c.f1 < spec.min_f1, "low_f1", f"f1 {c.f1:.3f}"),
        (c.isr < spec.min_isr, "low_isr", f"isr {c.isr:.3f}"),
        (c.ise < spec.min_ise, "low_ise", f"ise {c.ise:.3f}"),
        (
            spec.drop_stale_thoughts and c.thoughts in STALE_THOUGHTS,
            "stale_thoughts",
            f"thoughts {c.thoughts}: they may cite pruned steps",
        ),
    ]
    for failed, reason, detail in checks:
        if failed:
            return reason, str(detail)
    return None


def variant_counts(
    available: dict[str, int], ratios: dict[str, float], limit: int
) -> dict[str, int]:
    """How many of each variant to take so the counts follow `ratios` as closely as possible.

    Takes the largest total N (at most `limit` when set) with ``floor(N·share_v) <= available_v``
    for every variant with a positive ratio, and returns ``floor(N·share_v)``; e.g. available
    {basic: 10, union: 2} with ratios 1:1 → {basic: 2, union: 2}. O(#variants) plus a short
    correction of floating-point error around the closed form.
    """
    weights = {v: r for v, r in ratios.items() if r > 0}
    total = sum(weights.values())
    if not weights or total <= 0:
        return {}
    shares = {v: r / total for v, r in weights.items()}

    def take(n: int) -> dict[str, int]:
        return {v: math.floor(n * s + 1e-9) for v, s in shares.items()}

    def fits(n: int) -> bool:
        return (not limit or n <= limit) and all(
            c <= available.get(v, 0) for v, c in take(n).items()
        )

    n = max(0, min(math.ceil((available.get(v, 0) + 1) / s) - 1 for v, s in shares.items()))
    if limit:
        n = min(n, limit)
    while n > 0 and not fits(n):
        n -= 1
    while fits(n + 1):
        n += 1
    return take(n)


def _hard(c: Candidate, spec: DatasetSpec) -> bool:
    return not c.pruned and c.rounds >= spec.hybrid_min_rounds


def _hybrid_possible(passing: Sequence[Candidate], spec: DatasetSpec) -> bool:
    """Pruned trajectories and hard unpruned ones exist, of at least two tasks in all."""
    pruned = {c.task_id for c in passing if c.pruned}
    hard = {c.task_id for c in passing if _hard(c, spec)}
    return bool(pruned and hard and len(pruned | hard) >= 2)


def _hybrid(
    passing: list[Candidate], spec: DatasetSpec, rejected: list[tuple[str, str, str]]
) -> list[Candidate]:
    """WebClipper's Hybrid mix: pruned trajectories of some tasks and unpruned *hard* ones of
    OTHER tasks, never both for one task.

    A task with hard unpruned trajectories but no pruned one gives those; the tasks with both
    are split in seeded order: a share ``ratio / (1 + ratio)`` of them gives its hard unpruned
    trajectories, the rest (and every task without a hard one) its pruned ones. Unpruned ones
    beyond `hybrid_ratio` per pruned one are dropped (``over_hybrid_quota``). E.g. ratio 1 and
    four tasks a-d, each with a pruned and a hard unpruned trajectory: two tasks give their
    unpruned, two their pruned trajectory.
    """
    pruned_tasks = {c.task_id for c in passing if c.pruned}
    hard_tasks = {c.task_id for c in passing if _hard(c, spec)}
    # a task with hard unpruned trajectories only can give nothing else; of the tasks with
    # both, a share goes to the unpruned side, and one stays pruned if no other task is
    both = sorted(hard_tasks & pruned_tasks, key=lambda t: order_key(spec.seed, t))
    n_both = round(spec.hybrid_ratio / (1 + spec.hybrid_ratio) * len(both))
    if not pruned_tasks - hard_tasks:
        n_both = min(n_both, len(both) - 1)
    unpruned_side = (hard_tasks - pruned_tasks) | set(both[:n_both])
    pruned: list[Candidate] = []
    hard: list[Candidate] = []
    for c in passing:
        if c.pruned:
            if c.task_id in unpruned_side:
                rejected.append((c.rollout_id, "task_on_unpruned_side", c.task_id))
            else:
                pruned.append(c)
        elif c.task_id not in unpruned_side:
            why = "not_hard" if not _hard(c, spec) else "task_on_pruned_side"
            rejected.append((c.rollout_id, why, f"{c.rounds} rounds"))
        elif not _hard(c, spec):
            rejected.append((c.rollout_id, "not_hard", f"{c.rounds} rounds"))
        else:
            hard.append(c)
    quota = math.floor(spec.hybrid_ratio * len(pruned) + 1e-9)
    hard.sort(key=lambda c: (-c.rounds, order_key(spec.seed, c.rollout_id)))
    for c in hard[quota:]:
        rejected.append((c.rollout_id, "over_hybrid_quota", f"quota {quota}"))
    chosen = pruned + hard[:quota]
    chosen.sort(key=lambda c: order_key(spec.seed, c.rollout_id))
    if not any(c.pruned for c in chosen) or all(c.pruned for c in chosen):
        raise DatasetError(
            f"the hybrid mix needs pruned and hard unpruned trajectories of different tasks; "
            f"got {sum(c.pruned for c in chosen)} pruned and "
            f"{sum(not c.pruned for c in chosen)} unpruned (hybrid_min_rounds "
            f"{spec.hybrid_min_rounds}, hybrid_ratio {spec.hybrid_ratio:g}); use mix=eff or "
            "mix=filtered"
        )
    return chosen


def select(candidates: Iterable[Candidate], spec: DatasetSpec) -> Selection:
    """Apply the spec's filters and mix to candidates; returns chosen (in order) and rejected."""
    rejected: list[tuple[str, str, str]] = []
    passing: list[Candidate] = []
    for c in candidates:
        why = _filter_reason(c, spec)
        if why:
            rejected.append((c.rollout_id, *why))
        else:
            passing.append(c)
    passing.sort(key=lambda c: order_key(spec.seed, c.rollout_id))
    mix = spec.mix
    if mix == "auto":
        mix = "hybrid" if _hybrid_possible(passing, spec) else "filtered"
    chosen: list[Candidate] = []
    if mix == "filtered":
        for c in passing:
            if spec.pruned is not None and c.pruned != spec.pruned:
                rejected.append((c.rollout_id, "pruned" if c.pruned else "not_pruned", ""))
            else:
                chosen.append(c)
    elif mix == "eff":
        for c in passing:
            (chosen.append(c) if c.pruned else rejected.append((c.rollout_id, "not_pruned", "")))
    elif mix == "hybrid":
        chosen = _hybrid(passing, spec, rejected)
    else:
        raise DatasetError(f"unknown mix {spec.mix!r}")
    if spec.max_per_task:
        per_task: Counter[str] = Counter()
        capped = []
        for c in chosen:
            per_task[c.task_id] += 1
            if per_task[c.task_id] > spec.max_per_task:
                rejected.append((c.rollout_id, "over_task_cap", c.task_id))
            else:
                capped.append(c)
        chosen = capped
    if spec.variant_ratios:
        want = variant_counts(Counter(c.variant for c in chosen), spec.variant_ratios, spec.limit)
        taken: Counter[str] = Counter()
        mixed = []
        for c in chosen:
            if c.variant not in want:
                rejected.append((c.rollout_id, "variant_not_in_mix", c.variant))
            elif taken[c.variant] >= want[c.variant]:
                rejected.append((c.rollout_id, "over_variant_ratio", c.variant))
            else:
                taken[c.variant] += 1
                mixed.append(c)
        chosen = mixed
    if spec.limit and len(chosen) > spec.limit:
        rejected += [(c.rollout_id, "over_limit", str(spec.limit)) for c in chosen[spec.limit :]]
        chosen = chosen[: spec.limit]
    return Selection(chosen, rejected, mix)
