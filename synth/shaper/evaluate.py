"""A plain Python set evaluator of KP tasks: the oracle the compiled Cypher is tested against.

The graph is a `KGraph`: FACT triples ``(subject_ref, relation, object_ref)`` and page links
between the entities the pages are about. A triple ``[X, r, S]`` denotes the pair set
``{(x, s) | x r s}`` filtered to ``s ∈ S`` when ``S`` is a set of constants; the task's answer is
the set of values of ``?`` over all variable assignments satisfying every triple (a nested-loop
join, exponential in the number of variables in the worst case; tasks are small).

>>> g = KGraph(facts={("a", "born_in", "x"), ("b", "born_in", "y")})
>>> evaluate(KPTask("t", (Triple(Var("?"), "born_in", (Const("x", "x", "Entity"),)),)), g)
{'a'}
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from synth.shaper.kp import Const, KPTask, ShaperError, Term, Triple, Var, parse_relation


@dataclass
class KGraph:
    """A small knowledge graph in memory: node refs, FACT triples and entity-to-entity links."""

    facts: set[tuple[str, str, str]] = field(default_factory=set)
    links: set[tuple[str, str]] = field(default_factory=set)
    names: dict[str, str] = field(default_factory=dict)  # ref -> display name
    values: set[str] = field(default_factory=set)  # refs that are Value nodes (else Entity)

    def pairs(self, relation: str) -> set[tuple[str, str]]:
        """``{(x, s)}`` such that ``x relation s`` holds."""
        spec = parse_relation(relation)
        if spec.kind == "link":
            base = set(self.links)
        else:
            base = {(s, o) for s, r, o in self.facts if r == spec.name}
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
        pairs = graph.pairs(triple.relation)
        consts = {_allowed(o) for o in triple.objects if isinstance(o, Const)}
        obj_var = triple.objects[0] if isinstance(triple.objects[0], Var) else None
        subj = triple.subject
        subj_const = _allowed(subj) if isinstance(subj, Const) else None
        extended: list[dict[Var, str]] = []
        for b in bindings:
            for x, s in pairs:
                if subj_const is not None and x != subj_const:
                    continue
                if isinstance(subj, Var) and subj in b and b[subj] != x:
                    continue
                if obj_var is None and s not in consts:
                    continue
                if obj_var is not None and obj_var in b and b[obj_var] != s:
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
        rest.sort(key=lambda t: (not any(isinstance(o, Const) for o in t.terms()),
                                 not (t.variables() & bound)))
        nxt = rest.pop(0)
        ordered.append(nxt)
        bound |= nxt.variables()
    return ordered
