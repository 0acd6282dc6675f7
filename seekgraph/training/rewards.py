"""Reward functions for GRPO, as plain functions over plain data.

- `soft_f`: WebLeaper's soft F, ``(1+ω²)·P·R / (ω²·P + R)``. With the task's gold records
  (column ``gold``, `Task.answer_json`) P and R are over answer atoms (`seekgraph.common.answers`: each
  entity and each (entity, value) asked for), so the reward asks for the attributes too;
  without them P is the share of predicted items that match a target name and R the share of
  targets matched (names and aliases normalised as in `seekgraph.agent.metrics`). ω > 1 weighs recall more (WebLeaper rewards finding
  many entities). Example: 2 of 3 predictions right, 2 of 4 targets found, ω = 1 →
  P = 2/3, R = 1/2, F = 2·(1/3)/(2/3 + 1/2) = 4/7.
- `efficiency`: from ISE = n/T (targets found per action), normalised by |R| into [0, 1].
- `format_score` (the wire format's, `seekgraph.common.wire.format_score`): 1 for ``[<think>…</think>] <answer>…</answer>``, 0.5 for one well-formed tool
  call, else 0.1 per wire tag present (at most 0.4).

`score_trajectory` applies them to a whole multi-turn GRPO trajectory (answer, every tool call
and observation, every policy turn); `make_trl_rewards` wraps them in TRL's signature
``f(prompts, completions, **columns)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from seekgraph.agent.metrics import Target, match_units
from seekgraph.agent.web.responses import returned_units
from seekgraph.common.answers import AnswerRecord, atom_prf, gold_records, parse_records
from seekgraph.common.text import normalize
from seekgraph.common.wire import format_score, parse_assistant

TargetNames = Sequence[Sequence[str]]  # per target: its name and aliases
TargetOwners = Sequence[Sequence[int]]  # per target: the targets it is an attribute of


def _matches(item: str, names: Sequence[str]) -> bool:
    key = normalize(item)
    return bool(key) and any(key == normalize(n) for n in names)


def precision_recall(predicted: Sequence[str], targets: TargetNames) -> tuple[float, float]:
    """P = predicted items matching some target / predicted; R = targets matched / targets."""
    preds = list(dict.fromkeys(p for p in predicted if normalize(p)))
    if not preds or not targets:
        return 0.0, 0.0
    right = sum(1 for p in preds if any(_matches(p, names) for names in targets))
    found = sum(1 for names in targets if any(_matches(p, names) for p in preds))
    return right / len(preds), found / len(targets)


def soft_f(precision: float, recall: float, omega: float = 1.0) -> float:
    """WebLeaper's (1+ω²)·P·R / (ω²·P + R); 0 when both are 0."""
    w2 = omega * omega
    denominator = w2 * precision + recall
    return (1 + w2) * precision * recall / denominator if denominator > 0 else 0.0


def answer_pr(
    prediction: str, targets: TargetNames, gold: Sequence[AnswerRecord] = ()
) -> tuple[float, float]:
    """(P, R) of an answer text: over gold atoms when `gold` is given, else over target names."""
    records = parse_records(prediction, expect_many=len(gold) != 1)
    if gold:
        aliases: dict[str, set[str]] = {}
        for names in targets:
            keys = {normalize(n) for n in names if normalize(n)}
            for k in keys:
                aliases.setdefault(k, set()).update(keys)
        p, r, _ = atom_prf(records, gold, aliases)
        return p, r
    return precision_recall([rec.name for rec in records], targets)


def efficiency(n_found: int, n_actions: int, n_targets: int) -> float:
    """ISE = n_found / n_actions, divided by |R| so that 1 means every target in one action."""
    if n_targets <= 0:
        return 0.0
    return min(1.0, n_found / max(1, n_actions) / n_targets)


def answer_text(completion: str) -> str:
    """The text inside the <answer> tags, or '' when the message gives no answer."""
    parsed = parse_assistant(completion)
    return parsed.answer if parsed.kind == "answer" else ""


def completion_text(completion: Any) -> str:
    """TRL passes plain strings (standard format) or message lists (conversational format)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list) and completion and isinstance(completion[-1], dict):
        return str(completion[-1].get("content", ""))
    return str(completion)


def score_completion(
    completion: str,
    targets: TargetNames,
    *,
    gold: Sequence[AnswerRecord] = (),
    prior_actions: int = 0,
    omega: float = 1.0,
) -> dict[str, float]:
    """All three terms for one completion (its answer against the gold records or targets)."""
    text = answer_text(completion)
    p, r = answer_pr(text, targets, gold)
    names = [rec.name for rec in parse_records(text)]
    actions = prior_actions + completion.count("<tool_call>")
    found = round(precision_recall(names, targets)[1] * len(targets))
    return {
        "soft_f": soft_f(p, r, omega),
        "efficiency": efficiency(found, max(1, actions), len(targets)),
        "format": format_score(completion),
    }


def score_trajectory(
    trajectory: dict[str, Any],
    targets: TargetNames,
    *,
    gold: Sequence[AnswerRecord] = (),
    omega: float = 1.0,
    owners: TargetOwners | None = None,
) -> dict[str, float]:
    """All three terms for one multi-turn GRPO trajectory (seekgraph/training/multiturn.py's record).

    `trajectory` holds ``steps`` (``role``, ``tool``, ``arguments``, ``observation`` per
    action, the seeded ones first, marked ``seeded``), ``turns`` (the text of every assistant turn the policy
    wrote) and ``prediction`` (its ``<answer>``, '' if none). soft-F scores the prediction's
    items; the efficiency term is ISE over the policy's OWN calls (targets revealed by its
    ``visit`` observations per tool call it made, as in `seekgraph.agent.metrics.score`: only
    what the web returned counts, never the echo of its own goal, and a target with `owners`
    (indexes of the targets it is an attribute of) only next to one of them; what the
    environment's seeded calls found is not the policy's merit) divided by |R|; the format term is the mean `format_score` of the
    policy's turns (0 when it wrote none).
    """
    p, r = answer_pr(trajectory.get("prediction") or "", targets, gold)
    steps = [s for s in trajectory.get("steps") or [] if not s.get("seeded")]
    actions = sum(1 for s in steps if s.get("role") == "tool_call")
    owned = list(owners) if owners is not None else [()] * len(targets)
    goals = [
        Target(f"t{i}", tuple(names), tuple(f"t{j}" for j in of))
        for i, (names, of) in enumerate(zip(targets, owned, strict=True))
    ]
    found_visit: set[str] = set()
    for step in steps:
        if step.get("tool") == "visit" and step.get("observation"):
            units = returned_units("visit", step.get("arguments"), step["observation"])
            found_visit |= match_units(units, goals)
    turns = trajectory.get("turns") or []
    return {
        "soft_f": soft_f(p, r, omega),
        "efficiency": efficiency(len(found_visit), max(1, actions), len(targets)),
        "format": sum(format_score(t) for t in turns) / len(turns) if turns else 0.0,
    }


RewardFn = Callable[..., list[float]]


def make_trl_rewards(omega: float = 1.0) -> list[RewardFn]:
    """[soft_f, efficiency, format] in TRL's reward signature ``f(prompts, completions, **kw)``.

    Multi-turn: the rollout function returns a ``trajectory`` field per completion (TRL hands
    it to the rewards next to the dataset columns); ``targets`` (list of name lists) and
    ``gold`` (the task's answer JSON, optional) and ``owners`` (per target, the indexes of
    the targets it is an attribute of; optional) are dataset columns. Without ``trajectory`` (plain single-turn generation) the completion text is
    read as one policy turn with ``prior_actions`` tool calls before it.
    """

    def _scores(completions: list[Any], kwargs: dict[str, Any]) -> list[dict[str, float]]:
        targets = kwargs["targets"]
        golds = [gold_records(g) for g in kwargs.get("gold") or [None] * len(completions)]
        trajectories = kwargs.get("trajectory")
        if trajectories is not None:
            owners = kwargs.get("owners") or [None] * len(completions)
            return [
                score_trajectory(t, names, gold=g, omega=omega, owners=o)
                for t, names, g, o in zip(trajectories, targets, golds, owners, strict=True)
            ]
        prior = kwargs.get("prior_actions") or [0] * len(completions)
        return [
            score_completion(completion_text(c), t, gold=g, prior_actions=int(a), omega=omega)
            for c, t, a, g in zip(completions, targets, prior, golds, strict=True)
        ]

    def soft_f_reward(prompts: list[Any], completions: list[Any], **kwargs: Any) -> list[float]:
        return [s["soft_f"] for s in _scores(completions, kwargs)]

    def efficiency_reward(prompts: list[Any], completions: list[Any], **kwargs: Any) -> list[float]:
        return [s["efficiency"] for s in _scores(completions, kwargs)]

    def format_reward(prompts: list[Any], completions: list[Any], **kwargs: Any) -> list[float]:
        return [s["format"] for s in _scores(completions, kwargs)]

    return [soft_f_reward, efficiency_reward, format_reward]
