"""Where an ordered picture's nodes go: a trajectory's actions or a rollout's steps cut into pages
and laid out in rows (fixed positions, the same in HTML and SVG), and the legend of a picture."""

from __future__ import annotations

from typing import Any

from seekgraph.viz.errors import NotFoundError
from seekgraph.viz.style import NECESSARY_COLOR, PIVOT_COLOR, PRUNED_COLOR, TARGET_COLOR, style_of
from seekgraph.viz.vizgraph import VizGraph, VizNode

# Ordered pictures (a trajectory's actions, a rollout's steps) are drawn a page at a time, in
# rows of `COLUMNS`, so a 100-step rollout stays readable: these many per page by default.
PER_PAGE = {"trajectory": 10, "steps": 20}


COLUMNS = 5


CELL_W, CELL_H, ROW_GAP = 260.0, 70.0, 60.0  # layout units (pixels in HTML, 1/100 in in SVG)


ORDERED = {"trajectory": "Action", "steps": "Step"}


def cut_page(vg: VizGraph, props: dict[str, dict[str, Any]], page: int, per_page: int) -> None:
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


def lay_out_grid(vg: VizGraph) -> None:
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


ROLE_LEGEND = {
    "target": (TARGET_COLOR, "gold ring: an answer (a gold record)"),
    "pivot": (PIVOT_COLOR, "red ring: pivot (reverse-union)"),
    "clue": ("#F28E2B", "orange ring: fuzzed clue"),
    "necessary": (NECESSARY_COLOR, "red edges/ring: necessary DAG"),
    "pruned": (PRUNED_COLOR, "grey, dashed: pruned (unnecessary)"),
}


def add_legend(vg: VizGraph) -> None:
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
