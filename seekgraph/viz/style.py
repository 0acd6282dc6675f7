"""One palette for every picture: the HTML and SVG views, the report and Neo4j Browser's grass.

Keeping colours and captions in one table means a node looks the same in `seekgraph viz`, in the
report and in a Browser screenshot, so a reviewer learns the colours once. This module imports
only the standard library because the CLI passes the Browser style from it to
`seekgraph/graphdb/server_files.py`, which writes it into neo4j.conf.
"""

from __future__ import annotations

import json
from dataclasses import dataclass


@dataclass(frozen=True)
class LabelStyle:
    """How nodes of one label look: fill colour, the property used as caption, a legend text."""

    color: str
    caption: str
    legend: str
    shape: str = "dot"  # vis-network shape; mapped to a Graphviz shape in seekgraph/viz/svg.py


LABELS: dict[str, LabelStyle] = {
    # Sources
    "Table": LabelStyle("#56B4E9", "title", "source table", "box"),
    "Entity": LabelStyle("#4C8EDA", "name", "entity (anchor or linked cell)"),
    "Value": LabelStyle("#A0A0A0", "text", "value (year, number, text)"),
    "Page": LabelStyle("#A6CEE3", "title", "web page", "box"),
    "Relation": LabelStyle("#CC79A7", "name", "relation (canonical column)", "diamond"),
    "Header": LabelStyle("#DDDDDD", "text", "column header"),
    "Column": LabelStyle("#DDDDDD", "header", "column"),
    "Row": LabelStyle("#EEEEEE", "index", "row"),
    # WebLeaper
    "Task": LabelStyle("#D55E00", "variant", "task (question)", "star"),
    "Tree": LabelStyle("#009E73", "root", "reasoning tree root", "triangle"),
    "Biclique": LabelStyle("#F0E442", "size", "biclique (shared relations)", "hexagon"),
    # WebShaper
    "Variable": LabelStyle("#E69F00", "name", "variable (V@X, ? = target)"),
    "Constant": LabelStyle("#7FC8F8", "text", "constant", "box"),
    "Triple": LabelStyle("#CC79A7", "relation", "triple [X, r, S]", "diamond"),
    # Agent and WebClipper
    "Rollout": LabelStyle("#8E6BBF", "policy", "rollout", "star"),
    "Step": LabelStyle("#BCBD22", "tool", "step"),
    "StateGraph": LabelStyle("#6A3D9A", "extractor", "state graph", "hexagon"),
    "Action": LabelStyle("#6BAED6", "tool", "action (tool call)", "box"),
    "Information": LabelStyle("#2CA02C", "text", "information (fact)"),
    # Training and bookkeeping
    "Dataset": LabelStyle("#17BECF", "name", "dataset", "box"),
    "TrainingRun": LabelStyle("#7F7F7F", "kind", "training run", "box"),
    "Evaluation": LabelStyle("#7F7F7F", "accuracy", "evaluation"),
    "StageRun": LabelStyle("#BBBBBB", "stage", "stage run", "box"),
    "Rejection": LabelStyle("#E15759", "reason", "rejected record"),
}
UNKNOWN = LabelStyle("#CCCCCC", "name", "other")

TARGET_COLOR = "#FFC20A"  # gold ring: a member of the target set R
PIVOT_COLOR = "#E15759"  # red: the pivot of a reverse-union task
NECESSARY_COLOR = "#D62728"  # red edges: the minimum necessary DAG
PRUNED_COLOR = "#D9D9D9"  # light grey: removed by pruning
EDGE_COLOR = "#8C8C8C"

# Relationship captions and widths in Neo4j Browser.
RELATIONSHIPS: dict[str, str] = {
    "TARGET": TARGET_COLOR,
    "PIVOT": PIVOT_COLOR,
    "CLUE": "#F28E2B",
    "SHARES": "#CC79A7",
    "ENABLES": "#2CA02C",
    "PRODUCES": "#1F77B4",
}


def style_of(labels: list[str] | tuple[str, ...] | frozenset[str]) -> tuple[str, LabelStyle]:
    """The first label of `labels` that has a style (labels order is not significant)."""
    for label in sorted(labels):
        if label in LABELS:
            return label, LABELS[label]
    return (sorted(labels)[0] if labels else "?"), UNKNOWN


def _rgb(color: str) -> str:
    """`#RRGGBB` -> `rgb(r,g,b)`; neo4j.conf values avoid `#` so nothing reads it as a comment."""
    value = color.lstrip("#")
    r, g, b = (int(value[i : i + 2], 16) for i in (0, 2, 4))
    return f"rgb({r},{g},{b})"


def grass() -> dict[str, dict[str, str]]:
    """Neo4j Browser's graph style (grass) as the JSON object its `:style` command accepts."""
    style: dict[str, dict[str, str]] = {
        "node": {
            "diameter": "50px",
            "color": _rgb("#A5ABB6"),
            "border-color": _rgb("#9AA1AC"),
            "border-width": "2px",
            "text-color-internal": _rgb("#FFFFFF"),
            "font-size": "10px",
        },
        "relationship": {
            "color": _rgb("#A5ABB6"),
            "shaft-width": "1px",
            "font-size": "8px",
            "padding": "3px",
            "text-color-external": _rgb("#000000"),
            "text-color-internal": _rgb("#FFFFFF"),
            "caption": "<type>",
        },
    }
    for label, spec in LABELS.items():
        style[f"node.{label}"] = {
            "color": _rgb(spec.color),
            "border-color": _rgb(spec.color),
            "text-color-internal": _rgb("#000000"),
            "caption": "{" + spec.caption + "}",
            "diameter": "65px" if label in {"Task", "Tree", "Rollout", "StateGraph"} else "50px",
        }
    for rel, color in RELATIONSHIPS.items():
        style[f"relationship.{rel}"] = {
            "color": _rgb(color),
            "shaft-width": "3px",
            "caption": "<type>",
        }
    return style


def browser_post_connect_cmd() -> str:
    """The value of `browser.post_connect_cmd`: apply the grass above once Browser connects,
    then clear the stream.

    Browser splits the setting on `;` outside quotes and runs each part as `:part`; `:style`
    accepts a JSON grass object, and the JSON has no bare `;`, so it stays one command. Every
    `:style` shows its grass as a frame a screen high; the `:clear` after it removes that frame
    (and the spent login form), so a connect leaves only the editor with the query of a
    `seekgraph browse` link.
    """
    return "style " + json.dumps(grass(), separators=(",", ":")) + "; clear"
