"""Compile a KP task into ONE Cypher query that returns its answer set.

This is the one place where seekgraph builds Cypher text in code: a task's shape (how many
variables, which triples) is data, so the query is assembled from the fixed fragments below.
Nothing from the task is formatted in: Cypher variable names are generated (``t``, ``v1``,
``c0``), relation names and constant ids travel as ``$parameters``, and the pattern of each
triple is one of four fixed shapes chosen by `kp.parse_relation`.

Each triple is its own ``MATCH`` clause, so two triples may use the same edge (KP semantics is
homomorphic: Cypher's relationship uniqueness applies only within one clause), and consecutive
``MATCH`` clauses are still planned together. Constants are matched through their key indexes.
A term used by a link triple gets its page once (``MATCH (p_t:Page)-[:ABOUT]->(t)``; a page is
about one entity with the same id, docs/schema.md §1), so a link triple is a one-hop pattern:
fewer relationships per query keeps the planner fast (planning dominates on small graphs).

>>> from seekgraph.synth.shaper.kp import Const, KPTask, Triple, Var
>>> uk = Const("UK", "/wiki/UK", "Entity")
>>> q = compile_task(KPTask("t", (Triple(Var("?"), "nationality", (uk,)),)))
>>> q.params["r0"], q.params["c0_e"]
('nationality', ['/wiki/UK'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import neo4j

from seekgraph.synth.shaper.kp import Const, KPTask, ShaperError, Term, Var, parse_relation

_FACT = "MATCH ({x})-[:FACT {{relation: ${r}}}]->({s})"
_FACT_INV = "MATCH ({s})-[:FACT {{relation: ${r}}}]->({x})"
_TABLE_FACT = "MATCH ({x})-[:FACT {{relation: ${r}, table_id: ${r}_t}}]->({s})"
_TABLE_FACT_INV = "MATCH ({s})-[:FACT {{relation: ${r}, table_id: ${r}_t}}]->({x})"
_PAGE = "MATCH (p_{n}:Page)-[:ABOUT]->({n})"
_LINK = "MATCH (p_{x})-[:LINKS_TO]->(p_{s})"
_CONST_ENTITY = "MATCH ({c}:Entity) WHERE {c}.entity_id IN ${c}_e"
_CONST_VALUE = "MATCH ({c}:Value) WHERE {c}.value_id IN ${c}_v"
_CONST_MIXED = (
    "MATCH ({c}) WHERE ({c}:Entity AND {c}.entity_id IN ${c}_e) "
    "OR ({c}:Value AND {c}.value_id IN ${c}_v)"
)
_RETURN = (
    "RETURN DISTINCT coalesce(t.entity_id, t.value_id) AS ref, "
    "coalesce(t.name, t.text, t.entity_id, t.value_id) AS name ORDER BY ref"
)


@dataclass(frozen=True)
class CompiledQuery:
    text: str
    params: dict[str, Any]


def compile_task(task: KPTask) -> CompiledQuery:
    """One query returning ``ref`` and ``name`` of every answer; raises `ShaperError` if malformed."""
    task.check()
    names: dict[Var, str] = {}
    for var in task.variables():
        names[var] = "t" if var.is_target else f"v{len(names)}"
    const_lines: list[str] = []
    lines: list[str] = []
    page_lines: dict[str, str] = {}
    params: dict[str, Any] = {}
    counter = 0

    def const_node(consts: list[Const]) -> str:
        nonlocal counter
        c = f"c{counter}"
        counter += 1
        entity_ids: list[str] = []
        value_ids: list[str] = []
        for const in consts:
            if const.ref is None:
                raise ShaperError(f"constant {const.text!r} is not resolved to a node")
            (value_ids if const.label == "Value" else entity_ids).append(const.ref)
        params[f"{c}_e"] = sorted(set(entity_ids))
        params[f"{c}_v"] = sorted(set(value_ids))
        fragment = (
            _CONST_MIXED
            if entity_ids and value_ids
            else _CONST_VALUE
            if value_ids
            else _CONST_ENTITY
        )
        const_lines.append(fragment.format(c=c))
        return c

    def node(term: Term) -> str:
        return names[term] if isinstance(term, Var) else const_node([term])

    for i, triple in enumerate(task.triples):
        spec = parse_relation(triple.relation)
        x = node(triple.subject)
        if isinstance(triple.objects[0], Var):
            s = names[triple.objects[0]]
        else:
            s = const_node([o for o in triple.objects if isinstance(o, Const)])
        r = f"r{i}"
        if spec.kind == "fact" and spec.table:
            params[r], params[f"{r}_t"] = spec.name, spec.table
            shape = _TABLE_FACT_INV if spec.inverse else _TABLE_FACT
            lines.append(shape.format(x=x, s=s, r=r))
        elif spec.kind == "fact":
            params[r] = spec.name
            lines.append((_FACT_INV if spec.inverse else _FACT).format(x=x, s=s, r=r))
        else:
            for n in (x, s):
                page_lines.setdefault(n, _PAGE.format(n=n))
            src, dst = (s, x) if spec.inverse else (x, s)
            lines.append(_LINK.format(x=src, s=dst))
    body = [*const_lines, *page_lines.values(), *lines, _RETURN]
    return CompiledQuery("\n".join(body), params)


def execute(driver: neo4j.Driver, task: KPTask, database: str | None = None) -> dict[str, str]:
    """Run the compiled task; returns ``{ref: name}`` of the answer set."""
    q = compile_task(task)
    records, _, _ = driver.execute_query(
        q.text, q.params, database_=database, routing_=neo4j.RoutingControl.READ
    )
    return {r["ref"]: r["name"] for r in records}
