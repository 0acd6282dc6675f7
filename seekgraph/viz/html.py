"""A self-contained interactive HTML page of a `VizGraph` (vis-network, inlined, works offline).

pyvis's own template loads vis-network from a CDN, which a reviewer on an offline machine (or a
CI runner) cannot reach; this page inlines the vis-network build shipped inside the pyvis
package instead, so one file opens anywhere. The page exposes `window.seekgraph` (the picture's
data and the network object) so the browser tests can count what was actually drawn.
"""

from __future__ import annotations

import html
import json
from collections import deque
from functools import cache
from importlib import resources
from pathlib import Path

from seekgraph.viz.errors import RenderError
from seekgraph.viz.style import PIVOT_COLOR, TARGET_COLOR
from seekgraph.viz.vizgraph import VizGraph, to_json

VIS_VERSION = "vis-9.1.2"
FORCE_LAYOUT_ABOVE = 30  # nodes
RING = {"target": TARGET_COLOR, "pivot": PIVOT_COLOR, "clue": "#F28E2B", "necessary": "#D62728"}
# Edges that mark a node rather than place it: ranks follow the tree, not these shortcuts.
NON_STRUCTURAL = {"HAS_NODE", "PIVOT", "CLUE", "TARGET"}
KP_SKIP = {"HAS_VARIABLE", "HAS_TRIPLE"}
SHAPES = {"dot", "box", "diamond", "star", "triangle", "hexagon", "square", "ellipse"}


@cache
def _asset(name: str) -> str:
    """Text of a file from pyvis's bundled vis-network build."""
    try:
        path = resources.files("pyvis") / "lib" / VIS_VERSION / name
        return path.read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError) as e:
        raise RenderError(
            f"vis-network ({VIS_VERSION}/{name}) not found in the pyvis package: "
            "install the `viz` extra (pip install 'seekgraph[viz]')"
        ) from e


def levels(vg: VizGraph) -> dict[str, int]:
    """Rank of each node for the hierarchical layout: its `layer` when set, else BFS depth.

    BFS runs from the picture's root over edges in both directions, so provenance edges
    pointing either way still place the root on top; unreachable nodes go one rank below.
    """
    if vg.nodes and all(n.layer is not None for n in vg.nodes):
        low = min(int(n.layer or 0) for n in vg.nodes)
        return {n.id: int(n.layer or 0) - low for n in vg.nodes}
    adjacency: dict[str, list[str]]
    skip = NON_STRUCTURAL | (KP_SKIP if vg.kind == "kp" else set())
    adjacency = {n.id: [] for n in vg.nodes}
    for e in vg.edges:
        if e.type not in skip:
            adjacency[e.source].append(e.target)
            adjacency[e.target].append(e.source)
    roots = [n.id for n in vg.nodes if n.role == "root"] or [vg.nodes[0].id]
    if vg.kind == "kp":
        # A KP question reads from its target variable outwards; the task sits above it.
        target = [n.id for n in vg.nodes if n.role == "target" and n.label == "Variable"]
        roots = target or roots  # the answers hang below it
    depth = {r: 0 for r in roots}
    queue = deque(roots)
    while queue:
        cur = queue.popleft()
        for nxt in adjacency[cur]:
            if nxt not in depth:
                depth[nxt] = depth[cur] + 1
                queue.append(nxt)
    fallback = max(depth.values(), default=0) + 1
    rank = {n.id: depth.get(n.id, fallback) for n in vg.nodes}
    for n in vg.nodes:
        if n.role == "root" and n.id not in depth:
            rank[n.id] = -1
    low = min(rank.values(), default=0)
    return {k: v - low for k, v in rank.items()}


def fixed(vg: VizGraph) -> bool:
    """Whether the picture carries its own layout (ordered pictures: `graph_layout.lay_out_grid`)."""
    return bool(vg.nodes) and all(n.x is not None and n.y is not None for n in vg.nodes)


def vis_data(vg: VizGraph) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """Nodes and edges in vis-network's format."""
    rank = levels(vg)
    nodes: list[dict[str, object]] = []
    for n in vg.nodes:
        ring = RING.get(n.role)
        nodes.append(
            {
                "id": n.id,
                "label": n.caption,
                "title": n.tooltip,
                "level": rank[n.id],
                "shape": n.shape if n.shape in SHAPES else "dot",
                "color": {
                    "background": n.color,
                    "border": ring or "#555555",
                    "highlight": {"background": n.color, "border": "#000000"},
                },
                "borderWidth": 5 if ring else 1,
                "shapeProperties": {"borderDashes": [4, 4] if n.role == "pruned" else False},
                "font": {"color": "#9A9A9A" if n.role == "pruned" else "#222222", "size": 13},
                "group": n.label,
                "role": n.role,
                **({"x": n.x, "y": n.y, "fixed": True} if fixed(vg) else {}),
            }
        )
    edges = [
        {
            "from": e.source,
            "to": e.target,
            "label": e.caption,
            "arrows": "to",
            "color": {"color": e.color},
            "width": e.width,
            "dashes": e.dashed,
            "font": {"size": 10, "color": "#555555", "strokeWidth": 3},
            "type": e.type,
            **({"title": e.tooltip} if e.tooltip else {}),
        }
        for e in vg.edges
    ]
    return nodes, edges


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{title}</title>
<style>{css}</style>
<style>
body {{ font-family: DejaVu Sans, Arial, sans-serif; margin: 0; color: #222; }}
header {{ padding: 8px 14px; border-bottom: 1px solid #ddd; }}
header h1 {{ font-size: 17px; margin: 0 0 4px 0; }}
header p {{ margin: 2px 0; font-size: 13px; color: #444; }}
#graph {{ width: 100%; height: calc(100vh - 90px); }}
#legend {{ position: absolute; right: 10px; top: 90px; background: rgba(255,255,255,.93);
  border: 1px solid #bbb; padding: 6px 10px; font-size: 12px; max-width: 320px; }}
#legend h2 {{ font-size: 13px; margin: 0 0 4px 0; }}
.sw {{ display: inline-block; width: 13px; height: 13px; border-radius: 7px;
  margin-right: 6px; vertical-align: middle; border: 1px solid #666; }}
.ring {{ background: #fff; border-width: 4px; width: 7px; height: 7px; }}
</style></head>
<body>
<header><h1>{title}</h1>{notes}</header>
<div id="graph"></div>
<div id="legend"><h2>Legend</h2>{legend}
<div style="color:#777;margin-top:4px">drag to move, scroll to zoom, hover for properties</div></div>
<script>{js}</script>
<script>
(function () {{
  var data = {data};
  var nodes = new vis.DataSet({nodes});
  var edges = new vis.DataSet({edges});
  var network = new vis.Network(document.getElementById("graph"), {{nodes: nodes, edges: edges}}, {{
    layout: {{hierarchical: {{enabled: {hierarchical}, direction: "{direction}",
             sortMethod: "directed", levelSeparation: 130, nodeSpacing: 170,
             shakeTowards: "roots"}}, randomSeed: 7}},
    physics: {{enabled: {physics}, solver: "forceAtlas2Based",
              forceAtlas2Based: {{gravitationalConstant: -60, springLength: 90}},
              stabilization: {{enabled: true, iterations: 400, fit: true}}}},
    interaction: {{hover: true, tooltipDelay: 120}},
    edges: {{smooth: {{type: "cubicBezier", forceDirection: "{force_direction}", roundness: 0.4}}}}
  }});
  window.seekgraph = {{data: data, network: network, drawn: false}};
  network.once("stabilizationIterationsDone", function () {{
    network.setOptions({{physics: false}});  // a still picture once the layout has settled
  }});
  network.once("afterDrawing", function () {{
    network.fit();
    window.seekgraph.drawn = true;
    document.body.setAttribute("data-drawn", String(network.body.nodeIndices.length));
  }});
}})();
</script>
</body></html>
"""


def _legend_html(vg: VizGraph) -> str:
    rows = []
    for name, color, text in vg.legend:
        ring = name in RING
        style = f"border-color:{color}" if ring else f"background:{color}"
        cls = "sw ring" if ring else "sw"
        rows.append(
            f'<div><span class="{cls}" style="{style}"></span>'
            f"<b>{html.escape(name)}</b> {html.escape(text)}</div>"
        )
    return "\n".join(rows)


def render_html(vg: VizGraph) -> str:
    """The whole page as a string (vis-network JS and CSS inlined)."""
    nodes, edges = vis_data(vg)
    # A wide tree (many anchors or attributes) reads better as a force layout than as a
    # hierarchy dozens of nodes wide; ordered pictures bring their own rows.
    pinned = fixed(vg)
    force = len(vg.nodes) > FORCE_LAYOUT_ABOVE and not pinned
    notes = "".join(f"<p>{html.escape(note)}</p>" for note in vg.notes)

    def js_json(value: object) -> str:
        # `</` must not close the script element when a caption contains it.
        return json.dumps(value, ensure_ascii=False).replace("</", "<\\/")

    return PAGE.format(
        title=html.escape(vg.title or f"{vg.kind} {vg.subject_id}"),
        notes=notes,
        legend=_legend_html(vg),
        css=_asset("vis-network.css"),
        js=_asset("vis-network.min.js"),
        data=to_json(vg).replace("</", "<\\/"),
        nodes=js_json(nodes),
        edges=js_json(edges),
        hierarchical="false" if force or pinned else "true",
        physics="true" if force else "false",
        direction="LR" if vg.kind in {"trajectory", "steps"} else "UD",
        force_direction="horizontal" if vg.kind in {"trajectory", "steps"} else "vertical",
    )


def write_html(vg: VizGraph, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_html(vg), encoding="utf-8")
    return path
