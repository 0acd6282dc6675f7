"""What each kind of picture highlights: answers, pivot and clues of a task (with anchors capped),
a KP task's layers and bindings, a trajectory's necessary and pruned actions and the facts they
use, a rollout's steps with what they revealed."""

from __future__ import annotations

from typing import Any

from seekgraph.common.answers import gold_records
from seekgraph.viz.style import NECESSARY_COLOR, PIVOT_COLOR, PRUNED_COLOR
from seekgraph.viz.vizgraph import VizEdge, VizGraph, VizNode, shorten


def cap_anchors(vg: VizGraph, max_anchors: int, max_answers: int = 0) -> None:
    """Keep every answer (up to `max_answers`, 0: all) and at most `max_anchors` other anchors
    per tree (0: all; pivot and clue holders first), with only the values kept nodes point to."""
    by_id = {n.id: n for n in vg.nodes}
    answers = sorted((n for n in vg.nodes if n.role == "target"), key=lambda n: n.caption)
    drop = {n.id for n in answers[max_answers:]} if max_answers > 0 else set()
    special = {n.id for n in vg.nodes if n.role in {"pivot", "clue", "target"}}
    linked_to_clue = {e.source for e in vg.edges if by_id[e.target].role in {"clue", "pivot"}}
    kept_anchors: set[str] = set()
    shown = total = 0
    if max_anchors > 0:
        for tree in [n for n in vg.nodes if n.label == "Tree"]:
            others = sorted(
                {
                    e.target
                    for e in vg.edges
                    if e.source == tree.id and e.type == "HAS_ANCHOR" and e.target not in special
                },
                key=lambda a: (a not in linked_to_clue, by_id[a].caption),
            )
            total += len(others)
            shown += min(len(others), max_anchors)
            kept_anchors.update(others[:max_anchors])
            drop.update(others[max_anchors:])
    drop -= kept_anchors  # an anchor of two trees stays when either tree keeps it
    if not drop:
        return
    edges = [e for e in vg.edges if e.source not in drop and e.target not in drop]
    touched = {e.source for e in edges} | {e.target for e in edges}
    hidden = {
        n.id
        for n in vg.nodes
        if n.id in drop
        or (
            n.id not in touched
            and n.role not in {"pivot", "clue", "root", "target"}
            and n.label in {"Entity", "Value"}
        )
    }
    n_answers_hidden = sum(1 for n in answers if n.id in hidden)
    vg.nodes = [n for n in vg.nodes if n.id not in hidden]
    vg.edges = [e for e in edges if e.source not in hidden and e.target not in hidden]
    if total > shown:
        vg.notes.append(
            f"showing {shown} of {total} other anchors (at most {max_anchors} per tree; "
            "--max-anchors 0 draws all)"
        )
    if n_answers_hidden:
        vg.notes.append(
            f"showing {len(answers) - n_answers_hidden} of {len(answers)} answers "
            "(--max-answers 0 draws all; `seekgraph viz answers` lists each with its rows)"
        )


def decorate_task(
    vg: VizGraph,
    nodes: dict[str, VizNode],
    props: dict[str, dict[str, Any]],
    extra: dict[str, Any],
) -> None:
    task = next(
        (n for n in vg.nodes if n.label == "Task" and props[n.id].get("task_id") == vg.subject_id),
        None,
    )
    if task is None:
        return
    p = props[task.id]
    task.role = "root"
    n_answers = len(gold_records(p.get("answer_json"))) or sum(
        1 for n in vg.nodes if n.role == "target"
    )
    n_tables = vg.count("Table")
    r_size = p.get("n_targets")
    vg.title = (
        f"{p.get('variant', '?')} task {vg.subject_id}: {n_answers} answers from "
        f"{n_tables} table{'s' if n_tables != 1 else ''}"
        + (f" (|R| = {r_size}: answers, anchors and asked values)" if r_size else "")
    )
    if vg.kind == "biclique":
        vg.title = (
            f"biclique behind {p.get('variant', '?')} task {vg.subject_id}: "
            f"{vg.count('Tree')} trees x {vg.count('Relation')} shared relations"
        )
    if p.get("question"):
        vg.notes.append(f"Q: {p['question']}")
    if p.get("status") == "rejected":
        vg.notes.append(f"rejected: {p.get('reason')}")
    for edge in vg.edges:
        if edge.type == "PIVOT":
            edge.color, edge.width = PIVOT_COLOR, 3.0
        elif edge.type == "SHARES":
            edge.color, edge.width = "#CC79A7", 3.0
        elif edge.type == "CLUE":
            edge.color, edge.dashed = "#F28E2B", True
        elif edge.type == "FACT" and nodes[edge.source].role == "target":
            edge.width = 2.0


def name_list(values: list[str], limit: int = 4) -> str:
    shown = ", ".join(values[:limit])
    return shown + (f", +{len(values) - limit} more" if len(values) > limit else "")


def decorate_kp(
    vg: VizGraph,
    nodes: dict[str, VizNode],
    props: dict[str, dict[str, Any]],
    extra: dict[str, Any],
) -> None:
    layers = [
        int(props[n.id]["layer"])
        for n in vg.nodes
        if props[n.id].get("layer") is not None and n.label in {"Variable", "Triple"}
    ]
    bindings: dict[str, list[str]] = extra.get("bindings", {})
    answers = [n for n in vg.nodes if n.role == "target" and n.label in {"Entity", "Value"}]
    target_var = None
    for n in vg.nodes:
        pr = props[n.id]
        if pr.get("layer") is not None:
            n.layer = int(pr["layer"])
            n.caption = shorten(f"{n.caption} (L{n.layer})")
        if n.label == "Variable":
            bound = bindings.get(str(pr.get("name")))
            if pr.get("is_target"):
                n.role, target_var = "target", n
            if bound is not None:
                n.caption = shorten(
                    f"{n.caption} = {bound[0]}"
                    if len(bound) == 1
                    else f"{n.caption}: {len(bound)} bindings"
                )
                n.tooltip += f"\nbindings ({len(bound)}): {name_list(bound, 20)}"
        if n.label == "Task" and pr.get("task_id") == vg.subject_id:
            n.role = "root"
            n.layer = -1
            names = sorted(a.caption for a in answers)
            vg.title = (
                f"KP task {vg.subject_id}: {sum(1 for x in vg.nodes if x.label == 'Triple')}"
                f" triples, {max(layers) + 1 if layers else 1} layer(s); "
                f"answer{'s' if len(names) != 1 else ''}: {name_list(names) or 'none'}"
            )
            if pr.get("question"):
                vg.notes.append(f"Q: {pr['question']}")
    # Membership edges from the task to every variable/triple hide the question's shape: keep
    # only the one to the target variable. The answers hang off the target variable.
    vg.edges = [
        e
        for e in vg.edges
        if e.type not in {"HAS_VARIABLE", "HAS_TRIPLE"} or nodes[e.target].role == "target"
    ]
    if target_var is not None:
        for a in answers:
            vg.edges.append(
                VizEdge(target_var.id, a.id, "BINDS", "answer", color="#B8860B", width=2.0)
            )
    for name in sorted(bindings, key=lambda v: (v != "?", v)):
        vg.notes.append(f"{name} binds {len(bindings[name])}: {name_list(bindings[name], 8)}")
    if layers:
        vg.notes.append(
            "(Ln) = expansion layer: L0 is the seed question, each later layer "
            "replaced a leaf constant by a new variable (dashed 'expands' edge)"
        )
    for e in vg.edges:
        if e.type == "EXPANDS":
            e.dashed, e.color = True, "#E69F00"
        elif e.type == "OBJECT":
            e.width = 2.0


def decorate_trajectory(
    vg: VizGraph,
    nodes: dict[str, VizNode],
    props: dict[str, dict[str, Any]],
    extra: dict[str, Any],
) -> None:
    # Facts no action relied on are many (every observation sentence) and say nothing about
    # the decision path: the query leaves them out and their number is noted on their action.
    unused: dict[str, int] = extra.get("unused", {})
    for n in vg.nodes:
        k = unused.get(str(props[n.id].get("action_id")), 0)
        if n.label == "Action" and k:
            n.tooltip += f"\n(+{k} facts no action used, not drawn)"
    if unused:
        vg.notes.append(f"{sum(unused.values())} facts that no action used are not drawn")
    necessary: set[str] = set()
    for n in vg.nodes:
        pr = props[n.id]
        if n.label == "Action":
            if pr.get("necessary") is False:
                n.role, n.color = "pruned", PRUNED_COLOR
            elif pr.get("necessary"):
                n.role = "necessary"
                necessary.add(n.id)
        if n.label == "Rollout" and not pr.get("pruned"):
            n.role = "root"
            vg.title = (
                f"trajectory {pr.get('rollout_id')}: {pr.get('rounds', '?')} rounds, "
                f"{pr.get('tokens', '?')} tokens, termination {pr.get('termination', '?')}"
            )
        if n.label == "Rollout" and pr.get("pruned"):
            vg.notes.append(
                f"pruned version: {pr.get('rounds', '?')} rounds, {pr.get('tokens', '?')} tokens"
            )
    vg.edges = [e for e in vg.edges if e.type != "HAS_NODE"]  # membership is implicit here
    order = {n.id: int(props[n.id].get("index") or 0) for n in vg.nodes if n.label == "Action"}
    facts_as_edges(vg, nodes, order)
    n_actions = vg.count("Action")
    if n_actions:
        vg.notes.append(
            f"{len(necessary)} of {n_actions} actions necessary; "
            f"{sum(1 for n in vg.nodes if n.label == 'Action' and n.role == 'pruned')}"
            " pruned"
        )
    if not vg.title:
        vg.title = f"trajectory {vg.subject_id}"


def decorate_steps(
    vg: VizGraph,
    nodes: dict[str, VizNode],
    props: dict[str, dict[str, Any]],
    extra: dict[str, Any],
) -> None:
    for n in vg.nodes:
        pr = props[n.id]
        if n.label == "Step" and pr.get("detour_kind"):
            n.role, n.color = "pruned", PRUNED_COLOR
            n.tooltip += f"\ndetour: {pr['detour_kind']}"
        if n.label == "Rollout":
            n.role = "root"
            vg.title = (
                f"rollout {pr.get('rollout_id')}: {pr.get('rounds', '?')} rounds, "
                f"{pr.get('tokens', '?')} tokens"
            )
    vg.edges = [e for e in vg.edges if e.type != "HAS_STEP"]  # the NEXT chain says it
    for n in vg.nodes:
        if n.label == "Step":
            n.shape = "box"  # the caption inside: rows of steps stay legible
    for e in vg.edges:
        if e.type in {"NEXT", "REVEALED"}:
            e.caption = ""  # the arrows say it
    # a target hangs off the first step that revealed it; a step's targets are one node
    index = {n.id: int(props[n.id].get("index") or 0) for n in vg.nodes if n.label == "Step"}
    first: dict[str, str] = {}
    for e in vg.edges:
        if e.type == "REVEALED" and (
            e.target not in first or index[e.source] < index[first[e.target]]
        ):
            first[e.target] = e.source
    vg.edges = [e for e in vg.edges if e.type != "REVEALED" or first[e.target] == e.source]
    group_nodes(vg, nodes, ("Entity", "Value"), "revealed")
    n_detours = sum(1 for n in vg.nodes if n.label == "Step" and n.role == "pruned")
    if n_detours:
        vg.notes.append(f"{n_detours} recorded detours (grey, dashed)")


def facts_as_edges(vg: VizGraph, nodes: dict[str, VizNode], order: dict[str, int]) -> None:
    """Draw the facts between actions as edges: from the action that first produced a fact to
    each later *necessary* action relying on it, captioned with the fact (or "k facts") and
    listing them in the tooltip. A state graph's facts outnumber its actions a hundred to one;
    this is the necessary DAG at the granularity a reader follows, and pruned actions stand
    alone in grey (Neo4j Browser's focused query shows the fact nodes themselves)."""
    first: dict[str, str] = {}
    consumers: dict[str, list[str]] = {}
    for e in vg.edges:
        if e.type == "PRODUCES" and (
            e.target not in first or order[e.source] < order[first[e.target]]
        ):
            first[e.target] = e.source
        elif e.type == "ENABLES":
            consumers.setdefault(e.source, []).append(e.target)
    pairs: dict[tuple[str, str], list[str]] = {}
    skipped = 0
    for info, a in first.items():
        for b in consumers.get(info, []):
            if order[b] <= order[a]:
                continue
            if nodes[b].role != "necessary":
                skipped += 1
                continue
            pairs.setdefault((a, b), []).append(nodes[info].caption)
    facts = {n.id for n in vg.nodes if n.label == "Information"}
    vg.nodes = [n for n in vg.nodes if n.id not in facts]
    vg.edges = [e for e in vg.edges if e.source not in facts and e.target not in facts]
    for (a, b), texts in sorted(pairs.items(), key=lambda p: (order[p[0][0]], order[p[0][1]])):
        texts.sort()
        caption = texts[0] if len(texts) == 1 else f"{len(texts)} facts"
        edge = VizEdge(a, b, "USES", shorten(caption, 22), tooltip="\n".join(texts)[:2000])
        if nodes[a].role == "pruned":
            edge.color, edge.dashed = PRUNED_COLOR, True
        else:
            edge.color, edge.width = NECESSARY_COLOR, 3.0
        vg.edges.append(edge)
    vg.notes.append(
        "an edge a -> b: facts action a produced first and necessary action b relied on"
        + (f" ({skipped} uses by pruned actions not drawn)" if skipped else "")
    )


def group_nodes(
    vg: VizGraph, nodes: dict[str, VizNode], labels: tuple[str, ...], what: str, keep: int = 0
) -> None:
    """Nodes of `labels` with the same neighbours are interchangeable in the picture: a group
    larger than `keep` + 1 keeps `keep` of them and becomes one "k <what>" node with the same
    edges (connectivity is unchanged; the tooltip names the members)."""
    ins: dict[str, set[tuple[str, str]]] = {}
    outs: dict[str, set[tuple[str, str]]] = {}
    for e in vg.edges:
        ins.setdefault(e.target, set()).add((e.source, e.type))
        outs.setdefault(e.source, set()).add((e.target, e.type))
    groups: dict[tuple[frozenset[Any], frozenset[Any]], list[str]] = {}
    for n in vg.nodes:
        if n.label in labels and n.role not in {"pivot", "clue", "root"}:
            key = (frozenset(ins.get(n.id, ())), frozenset(outs.get(n.id, ())))
            groups.setdefault(key, []).append(n.id)
    merged: set[str] = set()
    for members in groups.values():
        if len(members) <= keep + 1:
            continue
        members.sort(key=lambda m: nodes[m].caption)
        rest = members[keep:]
        head = nodes[rest[0]]
        head.tooltip = "\n".join(nodes[m].caption for m in rest)[:2000]
        head.caption = shorten(f"{len(rest)} {what}: {nodes[rest[0]].caption}")
        head.shape = "box"
        merged.update(rest[1:])
    if merged:
        vg.nodes = [n for n in vg.nodes if n.id not in merged]
        vg.edges = [e for e in vg.edges if e.source not in merged and e.target not in merged]


DECORATE = {
    "task": decorate_task,
    "biclique": decorate_task,
    "kp": decorate_kp,
    "trajectory": decorate_trajectory,
    "steps": decorate_steps,
}
