"""Fetch the subgraph behind one picture and turn it into plain data both renderers share.

Each picture runs one query of `seekgraph/cypher/viz/` (the whole subgraph a picture needs; Neo4j
Browser gets the focused queries of `seekgraph/cypher/explore/`, at most 40 nodes each), collects the
nodes and relationships of the returned paths, and decides per node and edge what the picture
must say: which nodes are answers, which is the pivot, which actions are necessary and which
were pruned. Ordered pictures (a trajectory's actions, a rollout's steps) are cut into pages
and laid out in rows, so a 100-step rollout is a few readable pages instead of one strip.
The renderers (`seekgraph/viz/html.py`, `seekgraph/viz/svg.py`) only draw a `VizGraph`; they never look at the
database.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

import neo4j

from seekgraph.common.answers import gold_records
from seekgraph.graphdb import cypher
from seekgraph.viz.errors import NotFoundError
from seekgraph.viz.style import (
    EDGE_COLOR,
    NECESSARY_COLOR,
    PIVOT_COLOR,
    PRUNED_COLOR,
    TARGET_COLOR,
    style_of,
)

Kind = Literal["task", "kp", "trajectory", "steps", "biclique"]

# Which query draws which picture, and the name of its id parameter. The pictures read the whole
# subgraph (`seekgraph/cypher/viz/`); Neo4j Browser gets the focused queries of `seekgraph/cypher/explore/`.
QUERIES: dict[str, tuple[str, str]] = {
    "task": ("viz/show_leaper_task", "task_id"),
    "biclique": ("explore/show_biclique", "task_id"),
    "kp": ("viz/show_kp_task", "task_id"),
    "trajectory": ("viz/show_trajectory", "rollout_id"),
    "steps": ("viz/show_rollout_steps", "rollout_id"),
}
MAX_CAPTION = 28
# Ordered pictures (a trajectory's actions, a rollout's steps) are drawn a page at a time, in
# rows of `COLUMNS`, so a 100-step rollout stays readable: these many per page by default.
PER_PAGE = {"trajectory": 10, "steps": 20}
COLUMNS = 5
CELL_W, CELL_H, ROW_GAP = 260.0, 70.0, 60.0  # layout units (pixels in HTML, 1/100 in in SVG)


@dataclass(frozen=True)
class Options:
    """What a picture leaves out: anchors and answers beyond a cap (0: all), and the page of
    an ordered picture (`per_page` 0: the kind's default, `PER_PAGE`)."""

    max_anchors: int = 0
    max_answers: int = 0
    page: int = 1
    per_page: int = 0


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
    x: float | None = None  # a fixed position (ordered pictures), same in HTML and SVG
    y: float | None = None


@dataclass
class VizEdge:
    source: str
    target: str
    type: str
    caption: str = ""
    color: str = EDGE_COLOR
    width: float = 1.0
    dashed: bool = False
    tooltip: str = ""


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
    elif label == "Triple":  # `relation@table_id`: the table is in the tooltip
        value = str(props.get("relation") or "").split("@")[0]
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


def build(
    kind: str,
    subject_id: str,
    graph: neo4j.graph.Graph,
    max_anchors: int = 0,
    *,
    options: Options | None = None,
    extra: dict[str, Any] | None = None,
) -> VizGraph:
    """Turn a driver graph into a `VizGraph` with the roles that picture `kind` highlights.

    Task pictures draw every answer (a gold ring) and at most `max_anchors` other anchors per
    tree, and at most `options.max_answers` answers (0: all); a note says what was left out.
    `extra` carries what the subgraph does not hold: a KP task's variable bindings
    (``bindings``: variable name -> answer names) and a trajectory's unused facts per action
    (``unused``: action id -> count).
    """
    opts = options or Options(max_anchors=max_anchors)
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
            continue  # drawn as a gold ring on the answer, not as one more edge
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
    _DECORATE[kind](vg, nodes, props_of, extra or {})
    if kind == "task":
        _cap_anchors(vg, opts.max_anchors, opts.max_answers)
    if kind in PER_PAGE:
        _page(vg, props_of, opts.page, opts.per_page or PER_PAGE[kind])
        _grid(vg)
    _legend(vg)
    return vg


def _cap_anchors(vg: VizGraph, max_anchors: int, max_answers: int = 0) -> None:
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


def _decorate_task(
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


def _names(values: list[str], limit: int = 4) -> str:
    shown = ", ".join(values[:limit])
    return shown + (f", +{len(values) - limit} more" if len(values) > limit else "")


def _decorate_kp(
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
            n.caption = _short(f"{n.caption} (L{n.layer})")
        if n.label == "Variable":
            bound = bindings.get(str(pr.get("name")))
            if pr.get("is_target"):
                n.role, target_var = "target", n
            if bound is not None:
                n.caption = _short(
                    f"{n.caption} = {bound[0]}"
                    if len(bound) == 1
                    else f"{n.caption}: {len(bound)} bindings"
                )
                n.tooltip += f"\nbindings ({len(bound)}): {_names(bound, 20)}"
        if n.label == "Task" and pr.get("task_id") == vg.subject_id:
            n.role = "root"
            n.layer = -1
            names = sorted(a.caption for a in answers)
            vg.title = (
                f"KP task {vg.subject_id}: {sum(1 for x in vg.nodes if x.label == 'Triple')}"
                f" triples, {max(layers) + 1 if layers else 1} layer(s); "
                f"answer{'s' if len(names) != 1 else ''}: {_names(names) or 'none'}"
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
        vg.notes.append(f"{name} binds {len(bindings[name])}: {_names(bindings[name], 8)}")
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
    _facts_as_edges(vg, nodes, order)
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
    _group(vg, nodes, ("Entity", "Value"), "revealed")
    n_detours = sum(1 for n in vg.nodes if n.label == "Step" and n.role == "pruned")
    if n_detours:
        vg.notes.append(f"{n_detours} recorded detours (grey, dashed)")


def _facts_as_edges(vg: VizGraph, nodes: dict[str, VizNode], order: dict[str, int]) -> None:
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
        edge = VizEdge(a, b, "USES", _short(caption, 22), tooltip="\n".join(texts)[:2000])
        if nodes[a].role == "pruned":
            edge.color, edge.dashed = PRUNED_COLOR, True
        else:
            edge.color, edge.width = NECESSARY_COLOR, 3.0
        vg.edges.append(edge)
    vg.notes.append(
        "an edge a -> b: facts action a produced first and necessary action b relied on"
        + (f" ({skipped} uses by pruned actions not drawn)" if skipped else "")
    )


def _group(
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
        head.caption = _short(f"{len(rest)} {what}: {nodes[rest[0]].caption}")
        head.shape = "box"
        merged.update(rest[1:])
    if merged:
        vg.nodes = [n for n in vg.nodes if n.id not in merged]
        vg.edges = [e for e in vg.edges if e.source not in merged and e.target not in merged]


ORDERED = {"trajectory": "Action", "steps": "Step"}


def _page(vg: VizGraph, props: dict[str, dict[str, Any]], page: int, per_page: int) -> None:
    """Keep the ordered nodes (actions, steps) of page `page`, the nodes attached to them and
    the context (rollout, task, state graph); a note says which page this is."""
    label = ORDERED[vg.kind]
    ordered = sorted(
        (n for n in vg.nodes if n.label == label), key=lambda n: int(props[n.id].get("index") or 0)
    )
    for n in ordered:
        n.layer = int(props[n.id].get("index") or 0)
    pages = max(1, -(-len(ordered) // per_page))
    if page < 1 or page > pages:
        raise NotFoundError(f"page {page} does not exist: the picture has {pages} page(s)")
    shown = {n.id for n in ordered[(page - 1) * per_page : page * per_page]}
    out = {n.id for n in ordered} - shown
    attached = {
        other
        for e in vg.edges
        for end, other in ((e.source, e.target), (e.target, e.source))
        if end in shown
    }
    context = {n.id for n in vg.nodes if n.label in {"Rollout", "Task", "StateGraph"}}
    keep = (shown | attached | context) - out  # a node attached only to other pages goes
    vg.nodes = [n for n in vg.nodes if n.id in keep]
    vg.edges = [e for e in vg.edges if e.source in keep and e.target in keep]
    if pages > 1:
        first, last = (page - 1) * per_page + 1, min(page * per_page, len(ordered))
        more = f"; --page {page + 1} for the next" if page < pages else ""
        vg.notes.append(
            f"page {page} of {pages}: {label.lower()}s {first}-{last} of {len(ordered)}{more}"
        )


def _grid(vg: VizGraph) -> None:
    """Fixed positions for an ordered picture: context on a first row, then the ordered nodes
    in rows of `COLUMNS`, left to right like lines of text, each with the nodes it produced or
    revealed stacked under it (a node goes under its first ordered neighbour)."""
    label = ORDERED[vg.kind]
    ordered = sorted((n for n in vg.nodes if n.label == label), key=lambda n: n.layer or 0)
    position = {n.id: i for i, n in enumerate(ordered)}
    under: dict[str, list[VizNode]] = {n.id: [] for n in ordered}
    placed = set(position)
    context = [n for n in vg.nodes if n.label in {"Rollout", "Task", "StateGraph"}]
    placed |= {n.id for n in context}
    for n in vg.nodes:
        if n.id in placed:
            continue
        owners = [
            other
            for e in vg.edges
            for end, other in ((e.target, e.source), (e.source, e.target))
            if end == n.id and other in position
        ]
        if owners:
            under[min(owners, key=lambda o: position[o])].append(n)
            placed.add(n.id)
    for i, n in enumerate(context):  # staggered, so an edge between two skips the middle one
        n.x, n.y = i * CELL_W, (i % 2) * CELL_H * 0.7
    y = 1.7 * CELL_H + ROW_GAP
    for row in range(0, len(ordered), COLUMNS):
        cells = ordered[row : row + COLUMNS]
        depth = max((len(under[c.id]) for c in cells), default=0)
        for col, n in enumerate(cells):
            n.x, n.y = col * CELL_W, y
            for k, child in enumerate(sorted(under[n.id], key=lambda c: c.caption)):
                child.x, child.y = col * CELL_W, y + (k + 1) * CELL_H
        y += (depth + 1) * CELL_H + ROW_GAP
    loose = [n for n in vg.nodes if n.x is None]
    for i, n in enumerate(loose):  # nothing should be here; never leave a node unplaced
        n.x, n.y = (i % COLUMNS) * CELL_W, y + (i // COLUMNS) * CELL_H


_DECORATE = {
    "task": _decorate_task,
    "biclique": _decorate_task,
    "kp": _decorate_kp,
    "trajectory": _decorate_trajectory,
    "steps": _decorate_steps,
}

ROLE_LEGEND = {
    "target": (TARGET_COLOR, "gold ring: an answer (a gold record)"),
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
    *,
    options: Options | None = None,
) -> VizGraph:
    """Fetch and build the picture `kind` of `subject_id` (a task or rollout id)."""
    graph = fetch_graph(driver, kind, subject_id, database)
    extra: dict[str, Any] = {}
    if kind == "kp":
        extra["bindings"] = kp_bindings(driver, subject_id, database)
    elif kind == "trajectory":
        rows = _read(driver, "viz/count_unused_facts", database, rollout_id=subject_id)
        extra["unused"] = {r["action_id"]: int(r["unused"]) for r in rows}
    return build(
        kind, subject_id, graph, options=options or Options(max_anchors=max_anchors), extra=extra
    )


def kp_bindings(
    driver: neo4j.Driver, task_id: str, database: str | None = None
) -> dict[str, list[str]]:
    """Each variable's bindings in the task's solutions: the answer set of the same triples
    asked for that variable (`seekgraph.synth.shaper.kp.retarget`), names sorted; {} for a task whose
    triples cannot run (an unresolved constant)."""
    from seekgraph.synth.shaper.compile import execute
    from seekgraph.synth.shaper.kp import ShaperError, retarget
    from seekgraph.synth.shaper.store import load_tasks

    tasks = load_tasks(driver, database, task_ids=[task_id], status=None)
    if not tasks:
        return {}
    task = tasks[0]
    out: dict[str, list[str]] = {}
    try:
        for var in task.variables():
            answer = execute(driver, retarget(task, var) if not var.is_target else task, database)
            out[var.name] = sorted(answer.values(), key=str.casefold)
    except ShaperError:
        return {}
    return out


def _read(driver: neo4j.Driver, name: str, database: str | None, **params: Any) -> list[Any]:
    """`seekgraph.cypher.read` without server notifications (labels of later stages may not exist)."""
    text = cypher.query(name)

    def work(tx: neo4j.ManagedTransaction) -> list[dict[str, Any]]:
        return [record.data() for record in tx.run(text, params)]

    with driver.session(
        database=database, notifications_min_severity=neo4j.NotificationMinimumSeverity.OFF
    ) as s:
        return s.execute_read(work)


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
