"""The Knowledge-Projection formalism of WebShaper, as plain data.

A Knowledge Projection ``R(S)`` is the set of entities that stand in relation ``R`` to some
entity of the set ``S``. A task is written as triples ``[X, r, S]`` read as ``X ∈ r(S)``: ``X``
is a variable (or, in published rows, sometimes a constant), ``S`` a variable or constants;
several constants in one triple are an R-union ``r({c1}) ∪ r({c2})``; all triples hold at once
(intersection), and variables chain projections. The answer is the set of values of the target
variable ``?`` over all assignments that satisfy every triple (a conjunctive query).

Relations, as executed on our graph (docs/schema.md §1):

- ``r`` (a canonical relation name): ``(x)-[:FACT {relation: r}]->(s)``, i.e. ``x`` is the anchor
  entity of a table row whose ``r`` column holds ``s`` (``[Kazuo Ishiguro, nationality, UK]``);
- ``~r`` (the inverse): ``(s)-[:FACT {relation: r}]->(x)``;
- ``r@T`` and ``~r@T``: the same, only in the rows of table ``T`` (its ``table_id``). Seeds and
  expansions write table facts this way, so the question can name the table ("listed in the
  Wikipedia table "Booker Prize" with nationality UK") and a reader can check it there;
- ``links_to``: the page about ``x`` links to the page about ``s``
  (``(:Page)-[:ABOUT]->(x)``, ``(px)-[:LINKS_TO]->(ps)``, ``(ps)-[:ABOUT]->(s)``);
- ``linked_from``: the inverse of ``links_to``.

Example: ``[?, nationality, C@United Kingdom]`` and ``[?, links_to, V@A]``,
``[V@A, ~winner, C@1990]`` asks for British authors whose page links to a 1990 winner.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal

from seekgraph.synth.errors import SynthError
from seekgraph.synth.split import HELDOUT_PERCENT, NONE, split_of_sources

TARGET = "?"
LINKS_TO = "links_to"
LINKED_FROM = "linked_from"
INVERSE_PREFIX = "~"
TABLE_SEPARATOR = "@"
# any word characters: relations made from headers may start with a digit or hold non-ASCII
# letters (`2012_population_rank`, `première_date`); they travel as $parameters.
_RELATION = re.compile(r"^~?\w+$")


class ShaperError(SynthError):
    """A KP task is malformed (no target, a union over variables, an unknown relation)."""


@dataclass(frozen=True, order=True)
class Var:
    """A variable; ``?`` is the target. Names are the published ones (``V@X``) or ours."""

    name: str

    @property
    def is_target(self) -> bool:
        return self.name == TARGET


@dataclass(frozen=True, order=True)
class Const:
    """A constant: its text (without ``C@``) and, when known, the node it denotes.

    `ref` is the `entity_id` or `value_id`; `label` is ``Entity`` or ``Value``. Published
    constants arrive with only their text and are resolved against the graph later.
    """

    text: str
    ref: str | None = None
    label: str | None = None


Term = Var | Const


@dataclass(frozen=True)
class Triple:
    """``[subject, relation, objects]``; several objects form an R-union (constants only)."""

    subject: Term
    relation: str
    objects: tuple[Term, ...]
    layer: int = 0

    def terms(self) -> tuple[Term, ...]:
        return (self.subject, *self.objects)

    def variables(self) -> set[Var]:
        return {t for t in self.terms() if isinstance(t, Var)}


@dataclass(frozen=True)
class RelationSpec:
    """How one KP relation name executes: a FACT edge or a page link, forward or inverse."""

    kind: Literal["fact", "link"]
    name: str  # the FACT edge's `relation` (for links: "links_to")
    inverse: bool
    table: str = ""  # a fact only from this table's rows ('' = any table)


def parse_relation(relation: str) -> RelationSpec:
    """Map a KP relation name to its execution (see the module docstring); raises `ShaperError`."""
    if relation == LINKS_TO:
        return RelationSpec("link", LINKS_TO, False)
    if relation == LINKED_FROM:
        return RelationSpec("link", LINKS_TO, True)
    base, _, table = relation.partition(TABLE_SEPARATOR)
    if not _RELATION.match(base):
        raise ShaperError(
            f"relation {relation!r} is not executable: use a relation name (word characters), "
            f"~name, name@table_id, {LINKS_TO} or {LINKED_FROM}"
        )
    inverse = base.startswith(INVERSE_PREFIX)
    return RelationSpec("fact", base.removeprefix(INVERSE_PREFIX), inverse, table)


def table_relation(relation: str, table_id: str) -> str:
    """``nationality`` in table ``booker`` → ``nationality@booker``."""
    return f"{relation}{TABLE_SEPARATOR}{table_id}"


def inverse_relation(relation: str) -> str:
    """The KP relation that reads the same edge the other way round."""
    spec = parse_relation(relation)
    if spec.kind == "link":
        return LINKS_TO if spec.inverse else LINKED_FROM
    name = spec.name if spec.inverse else INVERSE_PREFIX + spec.name
    return table_relation(name, spec.table) if spec.table else name


@dataclass
class KPTask:
    """A formal task: its triples (an intersection), the target ``?``, and what we know about it."""

    task_id: str
    triples: tuple[Triple, ...]
    question: str = ""
    answer: list[str] = field(default_factory=list)
    answer_refs: list[str] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)
    source: str = "published"  # published | seed | expanded
    layer: int = 0
    parent_id: str | None = None
    expanded: tuple[Var, Const] | None = None  # (new variable, the constant it replaced)
    origin: str = ""  # the seed attempt or published id this task came from

    @property
    def target(self) -> Var:
        return Var(TARGET)

    def variables(self) -> list[Var]:
        """Every variable, the target first, then by name."""
        found = {v for t in self.triples for v in t.variables()}
        return sorted(found, key=lambda v: (not v.is_target, v.name))

    def constants(self) -> list[Const]:
        seen: dict[Const, None] = {}
        for t in self.triples:
            for term in t.terms():
                if isinstance(term, Const):
                    seen.setdefault(term, None)
        return list(seen)

    def check(self) -> None:
        """Raise `ShaperError` unless the target occurs and every R-union is over constants."""
        if not any(self.target in t.variables() for t in self.triples):
            raise ShaperError(f"task {self.task_id}: the target ? occurs in no triple")
        for t in self.triples:
            if len(t.objects) == 0:
                raise ShaperError(f"task {self.task_id}: triple without object")
            if len(t.objects) > 1 and any(isinstance(o, Var) for o in t.objects):
                raise ShaperError(f"task {self.task_id}: an R-union may only hold constants")

    def without(self, index: int) -> KPTask:
        """The same task with triple `index` dropped (used by the redundancy check)."""
        kept = self.triples[:index] + self.triples[index + 1 :]
        return replace(self, triples=kept)

    def source_tables(self) -> list[str]:
        """The tables the triples read (``relation@table_id``), which decide the held-out split
        with the pages (`urls`) as the fallback (`seekgraph.synth.split`)."""
        tables = {t.relation.partition(TABLE_SEPARATOR)[2] for t in self.triples}
        return sorted(tables - {""})

    @property
    def split(self) -> str | None:
        split = split_of_sources(self.source_tables(), self.urls, HELDOUT_PERCENT)
        return None if split == NONE else split

    def max_layer(self) -> int:
        return max((t.layer for t in self.triples), default=0)


def retarget(task: KPTask, var: Var) -> KPTask:
    """The same triples asking for `var` instead of ``?`` (``?`` becomes a plain variable)."""
    hidden = Var("V@target")

    def swap(term: Term) -> Term:
        if term == var:
            return Var(TARGET)
        return hidden if isinstance(term, Var) and term.is_target else term

    triples = tuple(
        replace(t, subject=swap(t.subject), objects=tuple(swap(o) for o in t.objects))
        for t in task.triples
    )
    return replace(task, triples=triples)
