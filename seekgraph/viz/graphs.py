"""Fetch the subgraph behind one picture and turn it into plain data both renderers share.

Each picture runs one query of `seekgraph/cypher/viz/` (the whole subgraph a picture needs; Neo4j
Browser gets the focused queries of `seekgraph/cypher/explore/`, at most 40 nodes each), collects the
nodes and relationships of the returned paths, and decides per node and edge what the picture
must say: which nodes are answers, which is the pivot, which actions are necessary and which
were pruned. Ordered pictures (a trajectory's actions, a rollout's steps) are cut into pages
and laid out in rows, so a 100-step rollout is a few readable pages instead of one strip.
The renderers (`seekgraph/viz/html.py`, `seekgraph/viz/svg.py`) only draw a `VizGraph`; they never look at the
database.

This module runs the query and builds the picture (the entry point: `load`); what each kind
highlights is in `graph_roles`, pages and rows in `graph_layout`, the plain data in `vizgraph`.
"""

from __future__ import annotations

from typing import Any

import neo4j

from seekgraph.graphdb import cypher
from seekgraph.viz.errors import NotFoundError
from seekgraph.viz.graph_layout import PER_PAGE, add_legend, cut_page, lay_out_grid
from seekgraph.viz.graph_roles import DECORATE, cap_anchors
from seekgraph.viz.style import style_of
from seekgraph.viz.vizgraph import Options, VizEdge, VizGraph, VizNode, shorten

# Which query draws which picture, and the name of its id parameter. The pictures read the whole
# subgraph (`seekgraph/cypher/viz/`); Neo4j Browser gets the focused queries of `seekgraph/cypher/explore/`.
QUERIES: dict[str, tuple[str, str]] = {
    "task": ("viz/show_leaper_task", "task_id"),
    "biclique": ("explore/show_biclique", "task_id"),
    "kp": ("viz/show_kp_task", "task_id"),
    "trajectory": ("viz/show_trajectory", "rollout_id"),
    "steps": ("viz/show_rollout_steps", "rollout_id"),
}


def _tooltip(label: str, props: dict[str, Any]) -> str:
    lines = [label]
    for key in sorted(props):
        if key == "embedding" or (key.endswith("_json") and len(str(props[key])) > 300):
            continue
        lines.append(f"{key}: {shorten(props[key], 160)}")
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
    return shorten(value)


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
    DECORATE[kind](vg, nodes, props_of, extra or {})
    if kind == "task":
        cap_anchors(vg, opts.max_anchors, opts.max_answers)
    if kind in PER_PAGE:
        cut_page(vg, props_of, opts.page, opts.per_page or PER_PAGE[kind])
        lay_out_grid(vg)
    add_legend(vg)
    return vg


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
    """A picture query's rows (`cypher.read_quietly`: labels may not exist yet)."""
    return cypher.read_quietly(driver, name, database=database, **params)
