"""Fetch the subgraph behind one picture and turn it into plain data both renderers share.

Each picture runs one of the exploration queries in `cypher/explore/` (the same text Neo4j
Browser runs for `seekgraph browse`), collects the nodes and relationships of the returned
paths, and decides per node and edge what the picture must say: which nodes are targets, which
is the pivot, which actions are necessary and which were pruned. The renderers
(`viz/html.py`, `viz/svg.py`) only draw a `VizGraph`; they never look at the database.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

import neo4j

from graphdb import cypher
from viz.errors import NotFoundError
from viz.style import (
    EDGE_COLOR,
    NECESSARY_COLOR,
    PIVOT_COLOR,
    PRUNED_COLOR,
    TARGET_COLOR,
    style_of,
)

Kind = Literal["task", "kp", "trajectory", "steps", "biclique"]

# Which exploration query draws which picture, and the name of its id parameter.
QUERIES: dict[str, tuple[str, str]] = {
    "task": ("explore/show_leaper_task", "task_id"),
    "biclique": ("explore/show_biclique", "task_id"),
    "kp": ("explore/show_kp_task", "task_id"),
    "trajectory": ("explore/show_trajectory", "rollout_id"),
    "steps": ("explore/show_rollout_steps", "rollout_id"),
}
MAX_CAPTION = 28


@dataclass
class VizNode:
    id: str
    label: str  # the styled label (Task, Entity, ...)
    caption: str
    tooltip: str
    color: str
    shape: str = "dot"
    role: str = ""  # target | pivot | clue | necessary | pruned | root | ""
    layer: int | None = None  # KP expansion layer / trajectory order, drawn as rank


@dataclass
class VizEdge:
    source: str
    target: str
    type: str
    caption: str = ""
    color: str = EDGE_COLOR
    width: float = 1.0
    dashed: bool = False


@dataclass
class VizGraph:
    """A picture's content: nodes, edges and a legend (label or marker -> (colour, text))."""

    kind: str
    subject_id: str
    title: str
    nodes: list[VizNode] = field(default_factory=list)
    edges: list[VizEdge] = field(default_factory=list)
    legend: list[tuple[str, str, str]] = field(default_factory=list)  # (name, colour, text)
    notes: list[str] = field(default_factory=list)

    def node(self, node_id: str) -> VizNode:
        return next(n for n in self.nodes if n.id == node_id)

    def count(self, label: str) -> int:
        return sum(1 for n in self.nodes if n.label == label)


def _short(text: object, limit: int = MAX_CAPTION) -> str:
    value = "" if text is None else str(text)
    value = " ".join(value.split())
    return value if len(value) <= limit else value[: limit - 1] + "…"


def _tooltip(label: str, props: dict[str, Any]) -> str:
    lines = [label]
    for key in sorted(props):
        if key == "embedding" or (key.endswith("_json") and len(str(props[key])) > 300):
            continue
        lines.append(f"{key}: {_short(props[key], 160)}")
    return "\n".join(lines)


def _caption(label: str, props: dict[str, Any]) -> str:
    _, spec = style_of([label])
    value = props.get(spec.caption)
    if label == "Task":
        value = f"{props.get('variant', '?')} task"
    elif label == "Action":
        value = f"a{props.get('index', '?')} {props.get('tool', '')}".strip()
    elif label == "Step":
        value = f"#{props.get('index', '?')} {props.get('tool') or props.get('kind', '')}"
    elif label == "Rollout":
        value = (
            f"{'pruned ' if props.get('pruned') else ''}rollout ({props.get('rounds', '?')} rounds)"
        )
    elif label == "Biclique":
        value = f"biclique {len(props.get('trees') or [])}×{len(props.get('relations') or [])}"
    elif label == "Triple":
        value = props.get("relation")
    if value is None:
        value = next((props[k] for k in ("name", "title", "text", "root") if props.get(k)), label)
    return _short(value)


def fetch_graph(
    driver: neo4j.Driver, kind: str, subject_id: str, database: str | None = None
) -> neo4j.graph.Graph:
    """Run the exploration query for `kind` and return the driver's graph of the result."""
    if kind not in QUERIES:
        raise NotFoundError(f"unknown picture kind {kind!r}; choose from {sorted(QUERIES)}")
    name, param = QUERIES[kind]
    text = cypher.query(name)

    def work(tx: neo4j.ManagedTransaction) -> neo4j.graph.Graph:
        return tx.run(text, {param: subject_id}).graph()

    # Notifications off: on a partial pipeline, labels a query names may not exist yet.
    with driver.session(
        database=database, notifications_min_severity=neo4j.NotificationMinimumSeverity.OFF
    ) as s:
        graph = s.execute_read(work)
    if not graph.nodes:
        what = "rollout" if param == "rollout_id" else "task"
        raise NotFoundError(
            f"no {what} with id {subject_id!r} (or it has nothing to draw); "
            "list ids with `seekgraph browse --list`"
        )
    return graph


def build(kind: str, subject_id: str, graph: neo4j.graph.Graph, max_anchors: int = 0) -> VizGraph:
    """Turn a driver graph into a `VizGraph` with the roles that picture `kind` highlights.

    Task pictures keep at most `max_anchors` anchors per tree (0: all): the pivot, anchors
    with clues and targets come first, so a 50-row table still gives a readable picture and
    a note says how many were left out.
    """
    nodes: dict[str, VizNode] = {}
    props_of: dict[str, dict[str, Any]] = {}
    for n in graph.nodes:
        label, spec = style_of(tuple(n.labels))
        props = dict(n.items())
        props_of[n.element_id] = props
        nodes[n.element_id] = VizNode(
            id=n.element_id,
            label=label,
            caption=_caption(label, props),
            tooltip=_tooltip(label, props),
            color=spec.color,
            shape=spec.shape,
        )
    edges: list[VizEdge] = []
    roles: dict[str, str] = {}
    for rel in graph.relationships:
        if rel.start_node is None or rel.end_node is None:
            continue
        src, dst, rtype = rel.start_node.element_id, rel.end_node.element_id, rel.type
        if rtype == "TARGET":
            roles.setdefault(dst, "target")
            continue  # drawn as a gold ring on the target, not as one more edge
        if rtype == "PIVOT":
            roles[dst] = "pivot"
        elif rtype == "CLUE":
            roles.setdefault(dst, "clue")
        caption = str(rel.get("relation") or "") if rtype == "FACT" else rtype.lower()
        edges.append(VizEdge(src, dst, rtype, caption=caption))
    vg = VizGraph(
        kind=kind, subject_id=subject_id, title="", nodes=list(nodes.values()), edges=edges
    )
    for node_id, role in roles.items():
        nodes[node_id].role = role
    _DECORATE[kind](vg, nodes, props_of)
    if kind == "task" and max_anchors > 0:
        _cap_anchors(vg, max_anchors)
    _legend(vg)
    return vg


def _cap_anchors(vg: VizGraph, max_anchors: int) -> None:
    """Drop anchors beyond `max_anchors` per tree, and the values only they pointed to."""
    order = {"pivot": 0, "clue": 1, "target": 2}
    by_id = {n.id: n for n in vg.nodes}
    linked_to_clue = {e.source for e in vg.edges if by_id[e.target].role in {"clue", "pivot"}}

    def rank(node_id: str) -> tuple[int, str]:
        role = by_id[node_id].role
        return (order.get(role, 1 if node_id in linked_to_clue else 3), by_id[node_id].caption)

    drop: set[str] = set()
    kept_anchors: set[str] = set()
    shown = total = 0
    for tree in [n for n in vg.nodes if n.label == "Tree"]:
        anchors = sorted(
            {e.target for e in vg.edges if e.source == tree.id and e.type == "HAS_ANCHOR"},
            key=rank,
        )
        total += len(anchors)
        shown += min(len(anchors), max_anchors)
        kept_anchors.update(anchors[:max_anchors])
        drop.update(anchors[max_anchors:])
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
            and n.role not in {"pivot", "clue", "root"}
            and n.label in {"Entity", "Value"}
        )
    }
    n_targets_hidden = sum(1 for n in vg.nodes if n.id in hidden and n.role == "target")
    vg.nodes = [n for n in vg.nodes if n.id not in hidden]
    vg.edges = [e for e in edges if e.source not in hidden and e.target not in hidden]
    vg.notes.append(
        f"showing {shown} of {total} anchors (at most {max_anchors} per tree; "
        f"--max-anchors 0 draws all); {n_targets_hidden} targets not drawn"
    )


def _decorate_task(
    vg: VizGraph, nodes: dict[str, VizNode], props: dict[str, dict[str, Any]]
) -> None:
    task = next(
        (n for n in vg.nodes if n.label == "Task" and props[n.id].get("task_id") == vg.subject_id),
        None,
    )
    if task is None:
        return
    p = props[task.id]
    task.role = "root"
    n_targets = sum(1 for n in vg.nodes if n.role == "target")
    vg.title = f"{p.get('variant', '?')} task {vg.subject_id}: {n_targets} targets in R"
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


def _decorate_kp(vg: VizGraph, nodes: dict[str, VizNode], props: dict[str, dict[str, Any]]) -> None:
    layers = [
        int(props[n.id]["layer"])
        for n in vg.nodes
        if props[n.id].get("layer") is not None and n.label in {"Variable", "Triple"}
    ]
    for n in vg.nodes:
        pr = props[n.id]
        if pr.get("layer") is not None:
            n.layer = int(pr["layer"])
            n.caption = _short(f"{n.caption} (L{n.layer})")
        if n.label == "Variable" and pr.get("is_target"):
            n.role = "target"
        if n.label == "Task" and pr.get("task_id") == vg.subject_id:
            n.role = "root"
            n.layer = -1
            vg.title = (
                f"KP task {vg.subject_id}: {sum(1 for x in vg.nodes if x.label == 'Triple')}"
                f" triples, {max(layers) + 1 if layers else 1} layer(s)"
            )
            if pr.get("question"):
                vg.notes.append(f"Q: {pr['question']}")
    # Membership edges from the task to every variable/triple hide the question's shape: keep
    # only the one to the target variable.
    vg.edges = [
        e
        for e in vg.edges
        if e.type not in {"HAS_VARIABLE", "HAS_TRIPLE"} or nodes[e.target].role == "target"
    ]
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


def _decorate_trajectory(
    vg: VizGraph, nodes: dict[str, VizNode], props: dict[str, dict[str, Any]]
) -> None:
    # Facts that no action relied on are many (every observation sentence) and say nothing
    # about the decision path: count them on their action instead of drawing them.
    used = {e.source for e in vg.edges if e.type == "ENABLES"}
    unused = {n.id for n in vg.nodes if n.label == "Information" and n.id not in used}
    if unused:
        extra: dict[str, int] = {}
        for e in vg.edges:
            if e.type == "PRODUCES" and e.target in unused:
                extra[e.source] = extra.get(e.source, 0) + 1
        for action_id, k in extra.items():
            nodes[action_id].tooltip += f"\n(+{k} facts no action used, not drawn)"
        vg.nodes = [n for n in vg.nodes if n.id not in unused]
        vg.edges = [e for e in vg.edges if e.source not in unused and e.target not in unused]
        vg.notes.append(f"{len(unused)} facts that no later action used are not drawn")
    _group_facts(vg, nodes)
    necessary: set[str] = set()
    for n in vg.nodes:
        pr = props[n.id]
        if n.label == "Action":
            n.layer = int(pr.get("index") or 0)
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
    # Information that only pruned actions produced is greyed too; facts that connect necessary
    # actions form the necessary DAG and their edges are drawn red.
    produced_by: dict[str, set[str]] = {}
    for e in vg.edges:
        if e.type == "PRODUCES":
            produced_by.setdefault(e.target, set()).add(e.source)
    for info_id, producers in produced_by.items():
        if producers and all(nodes[p].role == "pruned" for p in producers):
            nodes[info_id].role, nodes[info_id].color = "pruned", PRUNED_COLOR
    for e in vg.edges:
        a, b = nodes[e.source], nodes[e.target]
        if "pruned" in (a.role, b.role):
            e.color, e.dashed = PRUNED_COLOR, True
        elif e.type in {"PRODUCES", "ENABLES"} and (e.source in necessary or e.target in necessary):
            e.color, e.width = NECESSARY_COLOR, 3.0
    # Layout ranks: context on the left, then actions in order with the facts each produced.
    vg.edges = [e for e in vg.edges if e.type != "HAS_NODE"]  # membership is implicit here
    for n in vg.nodes:
        if n.label == "Action":
            n.layer = 2 * int(props[n.id].get("index") or 0) + 1
    for info_id, producers in produced_by.items():
        nodes[info_id].layer = min(int(nodes[p].layer or 0) for p in producers) + 1
    for n in vg.nodes:
        if n.layer is None:
            n.layer = 0
    n_actions = vg.count("Action")
    if n_actions:
        vg.notes.append(
            f"{len(necessary)} of {n_actions} actions necessary; "
            f"{sum(1 for n in vg.nodes if n.label == 'Action' and n.role == 'pruned')}"
            " pruned"
        )
    if not vg.title:
        vg.title = f"trajectory {vg.subject_id}"


def _decorate_steps(
    vg: VizGraph, nodes: dict[str, VizNode], props: dict[str, dict[str, Any]]
) -> None:
    for n in vg.nodes:
        pr = props[n.id]
        if n.label == "Step":
            n.layer = int(pr.get("index") or 0)
            if pr.get("detour_kind"):
                n.role, n.color = "pruned", PRUNED_COLOR
        if n.label == "Rollout":
            n.role = "root"
            vg.title = f"rollout {pr.get('rollout_id')}: {pr.get('rounds', '?')} rounds"


def _group_facts(vg: VizGraph, nodes: dict[str, VizNode], keep: int = 2) -> None:
    """Facts with the same producer and the same dependent actions are interchangeable in the
    picture: draw `keep` of them and one "+k facts" node with the same edges (the DAG's
    connectivity is unchanged)."""
    producers: dict[str, set[str]] = {}
    consumers: dict[str, set[str]] = {}
    for e in vg.edges:
        if e.type == "PRODUCES":
            producers.setdefault(e.target, set()).add(e.source)
        elif e.type == "ENABLES":
            consumers.setdefault(e.source, set()).add(e.target)
    groups: dict[tuple[frozenset[str], frozenset[str]], list[str]] = {}
    for n in vg.nodes:
        if n.label == "Information":
            key = (frozenset(producers.get(n.id, ())), frozenset(consumers.get(n.id, ())))
            groups.setdefault(key, []).append(n.id)
    merged: set[str] = set()
    for members in groups.values():
        if len(members) <= keep + 1:
            continue
        members.sort(key=lambda m: nodes[m].caption)
        rest = members[keep:]
        head = nodes[rest[0]]
        head.caption = f"+{len(rest)} facts"
        head.tooltip = "\n".join(nodes[m].caption for m in rest)[:2000]
        merged.update(rest[1:])
    if merged:
        vg.nodes = [n for n in vg.nodes if n.id not in merged]
        vg.edges = [e for e in vg.edges if e.source not in merged and e.target not in merged]


_DECORATE = {
    "task": _decorate_task,
    "biclique": _decorate_task,
    "kp": _decorate_kp,
    "trajectory": _decorate_trajectory,
    "steps": _decorate_steps,
}

ROLE_LEGEND = {
    "target": (TARGET_COLOR, "gold ring: in the target set R"),
    "pivot": (PIVOT_COLOR, "red ring: pivot (reverse-union)"),
    "clue": ("#F28E2B", "orange ring: fuzzed clue"),
    "necessary": (NECESSARY_COLOR, "red edges/ring: necessary DAG"),
    "pruned": (PRUNED_COLOR, "grey, dashed: pruned (unnecessary)"),
}


def _legend(vg: VizGraph) -> None:
    seen: dict[str, str] = {}
    for n in vg.nodes:
        if n.role != "pruned":
            seen.setdefault(n.label, n.color)
    for label, color in seen.items():
        _, spec = style_of([label])
        vg.legend.append((label, color, spec.legend))
    for role in ("target", "pivot", "clue", "necessary", "pruned"):
        if any(n.role == role for n in vg.nodes):
            color, text = ROLE_LEGEND[role]
            vg.legend.append((role, color, text))


def load(
    driver: neo4j.Driver,
    kind: str,
    subject_id: str,
    database: str | None = None,
    max_anchors: int = 0,
) -> VizGraph:
    """Fetch and build the picture `kind` of `subject_id` (a task or rollout id)."""
    graph = fetch_graph(driver, kind, subject_id, database)
    return build(kind, subject_id, graph, max_anchors)


def to_json(vg: VizGraph) -> str:
    """The picture as JSON (what the HTML page embeds and tests read back)."""
    return json.dumps(
        {
            "kind": vg.kind,
            "subject_id": vg.subject_id,
            "title": vg.title,
            "nodes": [n.__dict__ for n in vg.nodes],
            "edges": [e.__dict__ for e in vg.edges],
            "legend": vg.legend,
            "notes": vg.notes,
        },
        ensure_ascii=False,
    )
