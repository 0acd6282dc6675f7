"""A plain Python set evaluator of KP tasks: the oracle the compiled Cypher is tested against.

The graph is a `KGraph`: FACT triples ``(subject_ref, relation, object_ref)`` and page links
between the entities the pages are about. A triple ``[X, r, S]`` denotes the pair set
``{(x, s) | x r s}`` filtered to ``s ∈ S`` when ``S`` is a set of constants; the task's answer is
the set of values of ``?`` over all variable assignments satisfying every triple (a nested-loop
join over per-relation adjacency sets, exponential in the number of variables in the worst
case; tasks are small).

>>> g = KGraph(facts={("a", "born_in", "x"), ("b", "born_in", "y")})
>>> evaluate(KPTask("t", (Triple(Var("?"), "born_in", (Const("x", "x", "Entity"),)),)), g)
{'a'}
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from seekgraph.synth.shaper.kp import Const, KPTask, ShaperError, Term, Triple, Var, parse_relation


@dataclass
class KGraph:
    """A small knowledge graph in memory: node refs, FACT triples and entity-to-entity links."""

    facts: set[tuple[str, str, str]] = field(default_factory=set)
    table_facts: set[tuple[str, str, str, str]] = field(default_factory=set)  # (s, r, o, table)
    links: set[tuple[str, str]] = field(default_factory=set)
    names: dict[str, str] = field(default_factory=dict)  # ref -> display name
    values: set[str] = field(default_factory=set)  # refs that are Value nodes (else Entity)

    def pairs(self, relation: str) -> set[tuple[str, str]]:
        """``{(x, s)}`` such that ``x relation s`` holds."""
        spec = parse_relation(relation)
        if spec.kind == "link":
            base = set(self.links)
        elif spec.table:
            base = {(s, o) for s, r, o, t in self.table_facts if r == spec.name and t == spec.table}
        else:
            base = {(s, o) for s, r, o in self.facts if r == spec.name}
            base |= {(s, o) for s, r, o, _ in self.table_facts if r == spec.name}
        return {(b, a) for a, b in base} if spec.inverse else base

    def label(self, ref: str) -> str:
        return "Value" if ref in self.values else "Entity"


def _allowed(term: Term) -> str | None:
    if isinstance(term, Const):
        if term.ref is None:
            raise ShaperError(f"constant {term.text!r} is not resolved to a node")
        return term.ref
    return None


def evaluate(task: KPTask, graph: KGraph) -> set[str]:
    """The answer set (refs) of `task` on `graph`; raises `ShaperError` for a malformed task."""
    task.check()
    bindings: list[dict[Var, str]] = [{}]
    for triple in _join_order(task.triples):
        forward: dict[str, set[str]] = {}
        backward: dict[str, set[str]] = {}
        for x, s in graph.pairs(triple.relation):
            forward.setdefault(x, set()).add(s)
            backward.setdefault(s, set()).add(x)
        consts = {_allowed(o) for o in triple.objects if isinstance(o, Const)}
        obj_var = triple.objects[0] if isinstance(triple.objects[0], Var) else None
        subj = triple.subject
        subj_const = _allowed(subj) if isinstance(subj, Const) else None
        extended: list[dict[Var, str]] = []
        for b in bindings:
            xs: set[str] | None = None  # None: any subject
            if subj_const is not None:
                xs = {subj_const}
            elif isinstance(subj, Var) and subj in b:
                xs = {b[subj]}
            if obj_var is None:
                allowed_s: set[str] | None = {s for s in consts if s is not None}
            else:
                allowed_s = {b[obj_var]} if obj_var in b else None
            if xs is None and allowed_s is not None:
                xs = {x for s in allowed_s for x in backward.get(s, ())}
            for x in sorted(xs) if xs is not None else sorted(forward):
                for s in forward.get(x, ()):
                    if allowed_s is not None and s not in allowed_s:
                        continue
                    nb = dict(b)
                    if isinstance(subj, Var):
                        nb[subj] = x
                    if obj_var is not None:
                        if obj_var in nb and nb[obj_var] != s:
                            continue  # [X, r, X] needs x == s
                        nb[obj_var] = s
                    extended.append(nb)
        bindings = _dedupe(extended)
        if not bindings:
            return set()
    return {b[task.target] for b in bindings}


def _dedupe(bindings: Iterable[dict[Var, str]]) -> list[dict[Var, str]]:
    seen: dict[tuple[tuple[str, str], ...], dict[Var, str]] = {}
    for b in bindings:
        seen.setdefault(tuple(sorted((v.name, r) for v, r in b.items())), b)
    return list(seen.values())


def _join_order(triples: tuple[Triple, ...]) -> list[Triple]:
    """Triples with constants first, then those sharing a bound variable (keeps joins small)."""
    rest = list(triples)
    ordered: list[Triple] = []
    bound: set[Var] = set()
    while rest:
        rest.sort(
            key=lambda t: (
                not any(isinstance(o, Const) for o in t.terms()),
                not (t.variables() & bound),
            )
        )
        nxt = rest.pop(0)
        ordered.append(nxt)
        bound |= nxt.variables()
    return ordered
