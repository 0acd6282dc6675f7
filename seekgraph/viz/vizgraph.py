"""The plain data of one picture (`VizGraph`: nodes, edges, legend, notes) that both renderers
draw, the options that say what a picture leaves out, and its JSON form."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Literal

from seekgraph.viz.style import EDGE_COLOR

Kind = Literal["task", "kp", "trajectory", "steps", "biclique"]


MAX_CAPTION = 28


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


def shorten(text: object, limit: int = MAX_CAPTION) -> str:
    value = "" if text is None else str(text)
    value = " ".join(value.split())
    return value if len(value) <= limit else value[: limit - 1] + "…"


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
