"""Layer-wise expansion: replace a leaf constant by a new variable defined by KPs, then validate.

One step on task ``T`` at layer ``L``: the leaf constants come from
``seekgraph/cypher/shaper/find_leaf_constants.cypher`` (deepest layer first); for a leaf ``c`` in
``[X, r, C@c]`` denoting node ``n``, pick an edge ``[n, r', m]`` of the graph (table facts
before page links) and define the new variable ``V`` by ``[V, r', C@m]``, intersected with further edges of ``n`` while they shrink
``V``'s candidate set (at most ``max_definition`` KPs). ``[X, r, C@c]`` becomes ``[X, r, V]``.
The candidate is then validated by queries (`validate.validate_expansion`: consistency, no
shortcut, no redundancy); rejects are kept with their reason and the next candidate is tried.
A run repeats this for ``layers`` layers: every task of layer ``L`` gets at most one child.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

import neo4j

from seekgraph.graphdb import cypher
from seekgraph.graphdb.stages import StageReport, save_rejections
from seekgraph.synth.key_score import is_literal
from seekgraph.synth.shaper.config import ShaperConfig
from seekgraph.synth.shaper.kp import TARGET, Const, KPTask, ShaperError, Triple, Var
from seekgraph.synth.shaper.ops import GraphOps, Neighbour
from seekgraph.synth.shaper.seeds import (
    SeedRejected,
    askable,
    const_for,
    facts_first,
    finish_task,
    finished_records,
    is_hub,
    is_kind_value,
    is_place,
    through_a_kind,
    walkable,
)
from seekgraph.synth.shaper.store import load_tasks, save_tasks
from seekgraph.synth.shaper.validate import validate_expansion

STAGE = "shaper-expand"


@dataclass
class Attempt:
    """One validated candidate: the new task or the reason it failed."""

    task: KPTask | None
    reason: str = ""
    detail: str = ""


def next_variable(task: KPTask) -> Var:
    names = {v.name for v in task.variables()}
    for i in range(26 * 27):
        name = "V@" + (chr(65 + i % 26) if i < 26 else chr(64 + i // 26) + chr(65 + i % 26))
        if name not in names:
            return Var(name)
    raise SeedRejected("too_many_variables")


# a day and a month without the year ("25 January", "June 12")
_DAY_MONTH = re.compile(
    r"^(?:\d{1,2}(?:st|nd|rd|th)? [A-Z][a-z]+|[A-Z][a-z]+ \d{1,2}(?:st|nd|rd|th)?)$"
)


def numbered(text: str) -> bool:
    """Whether a constant is only a number or a date: a definition by it alone ("the player
    ... with pick "31"", "the program ... with date "25 January"") reads as a row looked up by
    its number, not a thing described.

    >>> numbered("31"), numbered("25 January"), numbered("14 March 1943"), numbered("WCHA")
    (True, True, True, False)
    """
    return is_literal(text) or bool(_DAY_MONTH.match(text.strip()))


def expansion_candidates(
    ops: GraphOps,
    task: KPTask,
    leaf: Const,
    triple_index: int,
    rng: random.Random,
    config: ShaperConfig,
) -> list[KPTask]:
    """Candidate tasks replacing `leaf` in triple `triple_index` by a new, defined variable."""
    assert leaf.ref is not None
    answer = set(task.answer_refs)
    taken = {c.ref for c in task.constants()}
    old = task.triples[triple_index]
    # the leaf as the walk reached it: only an entity that joins is defined by other facts,
    # and not a hub, a place (a country of many tables) or a kind (a position shared by many
    # rows): "the country of the club ranked 5" chains unrelated tables by coincidence
    edges = ops.neighbours(leaf.ref)
    reached = Neighbour(old.relation, leaf.ref, leaf.label or "Entity", leaf.text, len(edges))
    if is_hub(reached) or is_place(ops, reached) or is_kind_value(ops, old.relation):
        return []
    pool = facts_first(
        [
            n
            for n in askable(ops, walkable(edges, via=reached))
            if n.ref not in answer
            and n.ref not in taken
            and n.ref != leaf.ref
            and not through_a_kind(ops, n)
        ],
        rng,
    )
    new_var = next_variable(task)
    layer = task.layer + 1
    used = {c.text: c.ref or "" for c in task.constants()}
    out = []
    for first in pool[: config.candidate_tries]:
        local = dict(used)
        defs = [Triple(new_var, first.relation, (const_for(first, local),), layer)]
        current = ops.answer_of(KPTask("def", (replace(defs[0], subject=Var(TARGET)),)))
        for more in pool:
            if len(current) <= 1 or len(defs) >= config.max_definition:
                break
            if more is first:
                continue
            trial = [*defs, Triple(new_var, more.relation, (const_for(more, dict(local)),), layer)]
            narrowed = ops.answer_of(
                KPTask("def", tuple(replace(t, subject=Var(TARGET)) for t in trial))
            )
            if leaf.ref in narrowed and len(narrowed) < len(current):
                const_for(more, local)
                defs, current = trial, narrowed
        if all(numbered(c.text) for d in defs for c in d.objects if isinstance(c, Const)):
            continue  # "the player ... with round "18"": a number pins no one a person knows
        replaced = replace(old, objects=(new_var,))
        triples = (*task.triples[:triple_index], replaced, *task.triples[triple_index + 1 :], *defs)
        out.append(
            KPTask(
                "pending",
                triples,
                source="expanded",
                layer=layer,
                parent_id=task.task_id,
                expanded=(new_var, leaf),
                origin=f"expand:{task.task_id}",
            )
        )
    return out


def expand_once(
    ops: GraphOps,
    task: KPTask,
    leaves: list[dict[str, object]],
    rng: random.Random,
    config: ShaperConfig,
) -> tuple[KPTask | None, list[Attempt]]:
    """Try leaves and definitions until one candidate passes validation."""
    attempts: list[Attempt] = []
    order = list(leaves)
    rng.shuffle(order)
    old_answer = set(task.answer_refs)
    for leaf_row in order[: config.leaf_tries]:
        leaf = Const(str(leaf_row["text"]), str(leaf_row["ref"]), str(leaf_row["label"]))
        index = int(str(leaf_row["triple_index"]))
        candidates = expansion_candidates(ops, task, leaf, index, rng, config)
        if not candidates:
            attempts.append(Attempt(None, "no_definition", f"{leaf.text} has no usable edge"))
        for cand in candidates:
            assert cand.expanded is not None
            new_var = cand.expanded[0]
            new_consts = [
                c
                for t in cand.triples
                if new_var == t.subject
                for c in t.objects
                if isinstance(c, Const)
            ]
            failure = validate_expansion(
                old_answer, cand, new_var, new_consts, ops.answer_of, ops.neighbour_refs
            )
            if failure is not None:
                attempts.append(Attempt(None, failure.reason, failure.detail))
                continue
            try:
                done = finish_task(ops, cand, old_answer)
            except SeedRejected as e:
                attempts.append(Attempt(None, e.reason, str(e)))
                continue
            attempts.append(Attempt(done))
            return done, attempts
    return None, attempts


def expand_tasks(
    driver: neo4j.Driver,
    database: str | None,
    config: ShaperConfig,
    *,
    on_progress: Callable[[int], None] | None = None,
) -> StageReport:
    """Expand seeds layer by layer; each accepted child is stored with BUILT_FROM and EXPANDS."""
    report = StageReport(STAGE)
    ops = GraphOps(driver, database, neighbour_limit=config.neighbour_limit)
    done = finished_records(driver, database, STAGE, "expand:")
    attempted = 0
    accepted = 0
    reasons: dict[str, int] = {}
    for layer in range(config.layers):
        parents = [
            t
            for t in load_tasks(driver, database, status="kept")
            if t.source in ("seed", "expanded") and t.layer == layer
        ]
        todo = [t for t in parents if t.task_id not in done]
        report.skip(len(parents) - len(todo))
        children: list[KPTask] = []
        for parent in todo:
            leaves = cypher.read(
                driver, "shaper/find_leaf_constants", database=database, task_id=parent.task_id
            )
            if on_progress is not None:
                on_progress(1)
            rng = random.Random(f"{config.seed}:{parent.task_id}")
            try:
                child, attempts = expand_once(ops, parent, leaves, rng, config)
            except (ShaperError, SeedRejected) as e:
                reason = e.reason if isinstance(e, SeedRejected) else "malformed"
                report.reject(parent.task_id, reason, str(e))
                continue
            for k, a in enumerate(attempts):
                attempted += 1
                if a.task is None:
                    reasons[a.reason] = reasons.get(a.reason, 0) + 1
                    report.reject(f"{parent.task_id}#{k}", a.reason, a.detail)
            if child is None:
                report.reject(
                    parent.task_id, "no_valid_expansion", f"{len(attempts)} candidates failed"
                )
                continue
            accepted += 1
            children.append(child)
            report.keep()
        # the children are the parents' resume markers: their attempts' rejections go first
        save_rejections(driver, report, database)
        save_tasks(driver, children, database)
    report.notes.update(
        {
            "attempted": attempted,
            "accepted": accepted,
            "rejected_by_reason": dict(sorted(reasons.items())),
            "queries": ops.queries,
        }
    )
    return report.finish()
