"""Metrics of a trajectory against its task: entity matching, ISR, ISE, P/R/F1, accuracy, F-AE.

Definitions (WebLeaper, WebClipper):

- R: the task's target set (`TARGET` edges), each target with its names (name + aliases).
- O: targets revealed by any observation; a target is revealed when one of its normalised
  names occurs as a whole-word phrase in the normalised observation text.
- **ISR** = |R ∩ O| / |R|.
- **ISE** = n / T, with n = |R ∩ O_visit| the targets revealed by `visit` observations only
  (search snippets are imprecise and get superseded by visits, as in WebLeaper) and T the
  number of tool calls in the trajectory (at least 1).
- P/R/F1: over answer atoms (`seekgraph.common.answers`): each answered entity and each (entity, value)
  the question asks for, so an answer must carry the attributes, not just the names.
- Accuracy: for a list answer (gold with 2+ records) the atom F1; for a single answer, exact
  match of the one entity after normalisation (aliases count).
- **F-AE** = 2·Acc·E / (Acc + E) with E = 1 − rounds / max_rounds (0 when both are 0).

Example: R = {a, b, c, d}; search reveals a; visit reveals b, c; T = 3 tool calls:
ISR = 3/4, ISE = 2/3.

Matching is O(|R| · |text|) per observation; fine for tasks of ≤ a few hundred targets.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from seekgraph.common.answers import AnswerRecord, atom_prf, parse_records
from seekgraph.common.text import normalize
from seekgraph.common.wire import Turn


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


# A tool call the tools refused: its arguments or its tool were wrong (a format failure of the
# policy), unlike "no results" or "page not found", which are the web's answers.
REFUSED_CALLS = frozenset({"malformed_arguments", "unknown_tool", "malformed_tool_call"})


def valid_turn(kind: str, tool_error: str | None) -> bool:
    """Whether an assistant turn is a valid move: an answer, or a well-formed call of a known
    tool with arguments the tool accepts. The student's `valid_turn_rate` counts these."""
    return kind == "answer" or (kind == "tool_call" and tool_error not in REFUSED_CALLS)


_RESULT_MARKER = re.compile(r"(?m)^\s*\d+[.)]\s")


def match_entities(text: str, targets: Iterable[Target]) -> set[str]:
    """Ids of the targets whose normalised name occurs as a whole phrase in `text`; the numbers
    of search results ("1. [Title](url)") are not text and never reveal a numeric target."""
    haystack = f" {normalize(_RESULT_MARKER.sub(' ', text))} "
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
    gold: Sequence[AnswerRecord],
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
    predicted = parse_records(prediction, expect_many=len(gold) > 1)
    precision, recall, f1 = atom_prf(predicted, gold, aliases)
    if len(gold) > 1:
        accuracy = f1
    else:
        accuracy = 1.0 if gold and f1 == 1.0 and len(predicted) == 1 else 0.0
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
