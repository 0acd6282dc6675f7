"""Metrics of a trajectory against its task: entity matching, ISR, ISE, P/R/F1, accuracy, F-AE.

Definitions (WebLeaper, WebClipper):

- R: the task's target set (`TARGET` edges), each target with its names (name + aliases).
- O: targets revealed by any observation; a target is revealed when one of its normalised
  names occurs as a whole-word phrase in the normalised observation text.
- **ISR** = |R ∩ O| / |R|.
- **ISE** = n / T, with n = |R ∩ O_visit| the targets revealed by `visit` observations only
  (search snippets are imprecise and get superseded by visits, as in WebLeaper) and T the
  number of tool calls in the trajectory (at least 1).
- Accuracy: for a list answer (gold with 2+ items) the set F1 of predicted items against the gold
  items; for a single answer, exact match after normalisation (aliases count).
- **F-AE** = 2·Acc·E / (Acc + E) with E = 1 − rounds / max_rounds (0 when both are 0).

Example: R = {a, b, c, d}; search reveals a; visit reveals b, c; T = 3 tool calls:
ISR = 3/4, ISE = 2/3.

Matching is O(|R| · |text|) per observation; fine for tasks of ≤ a few hundred targets.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from agent.web.tools import normalize
from common.wire import Turn

_SPLIT = re.compile(r"\n|;|\s*\|\s*")


@dataclass(frozen=True)
class Target:
    target_id: str
    names: tuple[str, ...]

    @property
    def keys(self) -> tuple[str, ...]:
        """Normalised names long enough to match without false hits."""
        out = []
        for name in self.names:
            key = normalize(name)
            if len(key) >= 2 or key.isdigit():
                out.append(key)
        return tuple(dict.fromkeys(out))


@dataclass(frozen=True)
class Scores:
    isr: float
    ise: float
    precision: float
    recall: float
    f1: float
    accuracy: float
    fae: float
    n_targets: int
    n_found: int
    n_found_visit: int
    actions: int
    rounds: int


def match_entities(text: str, targets: Iterable[Target]) -> set[str]:
    """Ids of the targets whose normalised name occurs as a whole phrase in `text`."""
    haystack = f" {normalize(text)} "
    return {t.target_id for t in targets if any(f" {k} " in haystack for k in t.keys)}


def isr(targets: Sequence[Target], found: set[str]) -> float:
    ids = {t.target_id for t in targets}
    return len(ids & found) / len(ids) if ids else 0.0


def ise(found_by_visit: int, actions: int) -> float:
    return found_by_visit / max(actions, 1)


def fae(accuracy: float, rounds: int, max_rounds: int) -> float:
    efficiency = max(0.0, 1.0 - rounds / max_rounds) if max_rounds > 0 else 0.0
    if accuracy + efficiency == 0:
        return 0.0
    return 2 * accuracy * efficiency / (accuracy + efficiency)


def gold_items(answer_json: str | None) -> list[str]:
    """The gold answer as a list of strings, from `Task.answer_json` in any of its shapes."""
    if not answer_json:
        return []
    try:
        value: Any = json.loads(answer_json)
    except (json.JSONDecodeError, TypeError):
        value = answer_json
    if isinstance(value, dict):
        for key in ("answers", "answer", "items", "targets"):
            if key in value:
                value = value[key]
                break
    if not isinstance(value, list):
        value = [value]
    items = []
    for item in value:
        if isinstance(item, dict):
            item = item.get("name") or item.get("text") or item.get("answer") or ""
        if isinstance(item, list):
            item = " ".join(str(x) for x in item)
        if str(item).strip():
            items.append(str(item).strip())
    return items


def prediction_items(prediction: str, n_gold: int) -> list[str]:
    """Split a prediction into items (lines / `;` / `|`; commas too when a list is expected)."""
    parts = [p.strip(" -*•\t") for p in _SPLIT.split(prediction or "")]
    parts = [p for p in parts if p]
    if n_gold > 1 and len(parts) == 1 and "," in parts[0]:
        parts = [p.strip() for p in parts[0].split(",") if p.strip()]
    return parts


def set_prf(
    predicted: Sequence[str], gold: Sequence[str], aliases: dict[str, set[str]] | None = None
) -> tuple[float, float, float]:
    """Set precision, recall and F1 after normalisation; `aliases`: gold key → its aliases."""
    aliases = aliases or {}
    gold_keys = {normalize(g) for g in gold if normalize(g)}
    pred_keys = {normalize(p) for p in predicted if normalize(p)}
    if not gold_keys or not pred_keys:
        return 0.0, 0.0, 0.0
    matched_gold = {g for g in gold_keys if pred_keys & ({g} | aliases.get(g, set()))}
    matched_pred = {
        p for p in pred_keys if any(p == g or p in aliases.get(g, set()) for g in gold_keys)
    }
    precision = len(matched_pred) / len(pred_keys)
    recall = len(matched_gold) / len(gold_keys)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def alias_map(targets: Sequence[Target]) -> dict[str, set[str]]:
    """Every normalised name of a target → all its normalised names (for answer matching)."""
    out: dict[str, set[str]] = {}
    for t in targets:
        keys = set(t.keys)
        for k in keys:
            out.setdefault(k, set()).update(keys)
    return out


def revealed(turns: Sequence[Turn], targets: Sequence[Target]) -> list[set[str]]:
    """Per turn, the target ids its observation reveals."""
    return [match_entities(t.observation, targets) if t.response else set() for t in turns]


def score(
    turns: Sequence[Turn],
    targets: Sequence[Target],
    prediction: str,
    gold: Sequence[str],
    rounds: int,
    max_rounds: int,
    per_step: Sequence[set[str]] | None = None,
) -> Scores:
    """All metrics of one trajectory (see the module docstring for the definitions)."""
    per_step = list(per_step) if per_step is not None else revealed(turns, targets)
    found: set[str] = set().union(*per_step) if per_step else set()
    found_visit: set[str] = set()
    for turn, ids in zip(turns, per_step, strict=True):
        if turn.tool == "visit":
            found_visit |= ids
    target_ids = {t.target_id for t in targets}
    actions = sum(1 for turn in turns if turn.is_call)
    aliases = alias_map(targets)
    items = prediction_items(prediction, len(gold))
    precision, recall, f1 = set_prf(items, gold, aliases)
    if len(gold) > 1:
        accuracy = f1
    else:
        accuracy = 1.0 if gold and f1 == 1.0 and len(items) == 1 else 0.0
    n_visit = len(found_visit & target_ids)
    return Scores(
        isr=isr(targets, found),
        ise=ise(n_visit, actions),
        precision=precision,
        recall=recall,
        f1=f1,
        accuracy=accuracy,
        fae=fae(accuracy, rounds, max_rounds),
        n_targets=len(target_ids),
        n_found=len(found & target_ids),
        n_found_visit=n_visit,
        actions=actions,
        rounds=rounds,
    )
