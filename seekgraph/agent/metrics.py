"""Metrics of a trajectory against its task: entity matching, ISR, ISE, P/R/F1, accuracy, F-AE.

Definitions (WebLeaper, WebClipper):

- R: the task's target set (`TARGET` edges), each target with its names (name, aliases: the
  link texts it was seen under, and the titles of its pages).
- O: targets revealed by what the web RETURNED: the units of the tool responses
  (`seekgraph.agent.web.responses.returned_units`: result titles, URLs, snippets, evidence
  lines, summary sentences), never the echo of the agent's own query, URL or goal. A target is
  revealed when one of its normalised names occurs as a whole-word phrase in a unit; an
  attribute value (a target with `owners`) only in a unit that also names one of the entities
  it is an attribute of ("1954" counts for Kazuo Ishiguro in the row
  "Kazuo Ishiguro | 1954", not in a sentence about someone else).
- **ISR** = |R ∩ O| / |R|.
- **ISE** = n / T, with n = |R ∩ O_visit| the targets revealed by `visit` observations only
  (search snippets are imprecise and get superseded by visits, as in WebLeaper) and T the
  number of tool calls in the trajectory (at least 1).
- P/R/F1: over answer atoms (`seekgraph.common.answers`): each answered entity and each (entity, value)
  the question asks for, so an answer must carry the attributes, not just the names.
- Accuracy: 1 when the predicted atoms are exactly the gold atoms (every entity and value
  right, nothing wrong, aliases counting as their entity), else 0; for a list task this is
  all-or-nothing where F1 gives partial credit, so the two are different numbers.
- **F-AE** = 2·Acc·E / (Acc + E) with E = 1 − rounds / max_rounds (0 when both are 0).

Example: R = {a, b, c, d}; search reveals a; visit reveals b, c; T = 3 tool calls:
ISR = 3/4, ISE = 2/3.

Matching is O(|R| · |text|) per observation; fine for tasks of ≤ a few hundred targets.
`valid_turn`: a tool call that parsed and returned content, or a non-empty answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from seekgraph.agent.web.responses import turn_units
from seekgraph.common.answers import AnswerRecord, atom_prf, parse_records
from seekgraph.common.text import normalize
from seekgraph.common.wire import Turn


@dataclass(frozen=True)
class Target:
    """A member of R. `owners`: for an attribute value, the ids of the task's entities it is
    an attribute of; such a target is revealed only in a unit together with one of them."""

    target_id: str
    names: tuple[str, ...]
    owners: tuple[str, ...] = ()

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


def task_targets(rows: Iterable[dict[str, Any]]) -> list[Target]:
    """The `Target`s of one task from its `agent/find_task_targets` rows: each with its name,
    its link texts and the titles of its pages that contain its name ("Amsterdam (novel)" for
    "Amsterdam"; a title that does not name the entity is no evidence of it). An alias that
    several targets of the task share names none of them and is dropped."""
    rows = list(rows)

    def aliases(row: dict[str, Any]) -> list[str]:
        name = f" {normalize(row['name'])} "
        titles = [t for t in row.get("titles") or () if name in f" {normalize(t)} "]
        return [*row["aliases"], *titles]

    holders: dict[str, set[str]] = {}
    for row in rows:
        for alias in aliases(row):
            holders.setdefault(normalize(alias), set()).add(row["target_id"])
    out = []
    for row in rows:
        kept = [a for a in aliases(row) if len(holders[normalize(a)]) == 1]
        names = tuple(dict.fromkeys(n for n in (row["name"], *kept) if n))
        out.append(Target(row["target_id"], names, tuple(sorted(set(row.get("owners") or ())))))
    return out


def valid_turn(kind: str, tool_error: str | None, answer: str | None = None) -> bool:
    """Whether an assistant turn is a valid move: a well-formed call of a known tool that
    returned content (not refused, not `no_results`, not `not_found`), or a non-empty answer.
    The student's `valid_turn_rate` counts these."""
    if kind == "answer":
        return bool((answer or "").strip())
    return kind == "tool_call" and tool_error is None


def _present(unit: str, targets: Iterable[Target]) -> set[str]:
    haystack = f" {normalize(unit)} "
    return {t.target_id for t in targets if any(f" {k} " in haystack for k in t.keys)}


def match_units(units: Sequence[str], targets: Sequence[Target]) -> set[str]:
    """Ids of the targets the returned `units` reveal: a target whose normalised name occurs
    as a whole phrase in a unit; a target with `owners` only in a unit that also names one of
    its owners."""
    found: set[str] = set()
    for unit in units:
        here = _present(unit, targets)
        found |= {
            t.target_id
            for t in targets
            if t.target_id in here and (not t.owners or here.intersection(t.owners))
        }
    return found


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
    """Per turn, the target ids what the web returned to it reveals (`match_units`)."""
    return [match_units(turn_units(t), targets) for t in turns]


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
    accuracy = 1.0 if gold and precision == 1.0 and recall == 1.0 else 0.0
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
