"""A static SVG of a `VizGraph` via Graphviz `dot`, for reports, reviews and pull requests.

The legend is an HTML-like table in the graph label, so it travels inside the one SVG file.
Needs the `dot` binary (Debian: `apt-get install graphviz`); its absence is a `RenderError`.
"""

from __future__ import annotations

import html
import shutil
import textwrap
from pathlib import Path

import graphviz

from seekgraph.viz.errors import RenderError
from seekgraph.viz.style import PIVOT_COLOR, TARGET_COLOR
from seekgraph.viz.vizgraph import VizGraph

SHAPES = {
    "dot": "ellipse",
    "box": "box",
    "diamond": "diamond",
    "star": "doubleoctagon",
    "triangle": "invtriangle",
    "hexagon": "hexagon",
}
RING = {"target": TARGET_COLOR, "pivot": PIVOT_COLOR, "clue": "#F28E2B", "necessary": "#D62728"}


def _legend_label(vg: VizGraph) -> str:
    rows = [f'<TR><TD COLSPAN="2" ALIGN="LEFT"><B>{html.escape(vg.title)}</B></TD></TR>']
    for note in vg.notes:  # wrapped, not cut: a question is read in full
        lines = textwrap.wrap(note[:1200], 110) or [""]
        text = '<BR ALIGN="LEFT"/>'.join(html.escape(line) for line in lines)
        rows.append(f'<TR><TD COLSPAN="2" ALIGN="LEFT">{text}<BR ALIGN="LEFT"/></TD></TR>')
    rows.append('<TR><TD COLSPAN="2" ALIGN="LEFT"><I>legend</I></TD></TR>')
    for name, color, text in vg.legend:
        if name in RING:
            swatch = f'<TD WIDTH="16" BGCOLOR="white" COLOR="{color}" BORDER="3"> </TD>'
        else:
            swatch = f'<TD WIDTH="16" BGCOLOR="{color}"> </TD>'
        rows.append(
            f'<TR>{swatch}<TD ALIGN="LEFT">{html.escape(name)}: {html.escape(text)}</TD></TR>'
        )
    body = "".join(rows)
    return f'<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="2">{body}</TABLE>>'


def to_dot(vg: VizGraph) -> graphviz.Digraph:
    """The Graphviz graph: nodes coloured by label, rings for roles, legend as the graph label."""
    # Wide trees grow to the right so their leaves stack instead of spreading over a page;
    # an ordered picture brings its own rows (`graph_layout.lay_out_grid`), pinned for neato.
    pinned = bool(vg.nodes) and all(n.x is not None and n.y is not None for n in vg.nodes)
    rankdir = "LR" if len(vg.nodes) > 30 else "TB"
    dot = graphviz.Digraph(
        name="seekgraph",
        engine="neato" if pinned else "dot",
        graph_attr={
            **({"splines": "curved", "overlap": "true"} if pinned else {}),
            "rankdir": rankdir,
            "labelloc": "t",
            "labeljust": "l",
            "fontname": "DejaVu Sans",
            "fontsize": "11",
            "label": _legend_label(vg),
            "nodesep": "0.25",
            "ranksep": "0.6",
        },
        node_attr={"fontname": "DejaVu Sans", "fontsize": "10", "style": "filled"},
        edge_attr={"fontname": "DejaVu Sans", "fontsize": "8", "arrowsize": "0.6"},
    )
    for i, n in enumerate(vg.nodes):
        ring = RING.get(n.role)
        style = "filled,dashed" if n.role == "pruned" else "filled"
        dot.node(
            f"n{i}",
            label=n.caption,
            fillcolor=n.color,
            shape=SHAPES.get(n.shape, "ellipse"),
            color=ring or "#555555",
            penwidth="4" if ring else "1",
            style=style,
            fontcolor="#8A8A8A" if n.role == "pruned" else "#111111",
            tooltip=n.tooltip[:500],
            **({"pos": f"{(n.x or 0) / 100:.2f},{-(n.y or 0) / 100:.2f}!"} if pinned else {}),
        )
    index = {n.id: f"n{i}" for i, n in enumerate(vg.nodes)}
    for e in vg.edges:
        dot.edge(
            index[e.source],
            index[e.target],
            label=e.caption,
            color=e.color,
            penwidth=str(e.width),
            style="dashed" if e.dashed else "solid",
            fontcolor="#555555",
            **({"tooltip": e.tooltip[:500]} if e.tooltip else {}),
        )
    return dot


def render_svg(vg: VizGraph) -> str:
    """SVG text (runs `dot`)."""
    if shutil.which("dot") is None:
        raise RenderError(
            "Graphviz `dot` was not found on PATH: install it "
            "(Debian/Ubuntu: `apt-get install graphviz`)"
        )
    try:
        return to_dot(vg).pipe(format="svg", encoding="utf-8")
    except graphviz.ExecutableNotFound as e:
        raise RenderError(f"Graphviz could not run: {e}") from e
    except graphviz.CalledProcessError as e:
        raise RenderError(f"Graphviz failed: {e}") from e


def write_svg(vg: VizGraph, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_svg(vg), encoding="utf-8")
    return path
