"""Which trees of a maximal biclique a Union task intersects: the pair with the most common
anchors, extended by the trees that keep enough of them, never two copies of one list, a tree of
the generic kind, or two tables a question would name alike; and the id of a family's task,
whichever biclique found it. The task itself is defined in `seekgraph.synth.leaper.tasks_union`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from seekgraph.graphdb.ids import stable_id
from seekgraph.synth.leaper.questions import table_ref


def jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def select_family(
    anchor_sets: dict[str, set[str]],
    max_overlap: float = 1.0,
    kinds: dict[str, str] | None = None,
    tables: dict[str, str] | None = None,
    related: Callable[[str, str], bool] | None = None,
    sorted_by: dict[str, str] | None = None,
) -> list[str]:
    """The trees of a biclique a Union task intersects (see `seekgraph.synth.leaper.tasks_union`).

    Two trees whose anchor sets overlap more than `max_overlap` (Jaccard) are copies of one list
    (the same table twice, or a year's table and its update): their intersection asks nothing,
    so such a pair is never taken together. With `kinds` (tree → the kind of entity its key
    column lists, `seekgraph.synth.phrasing.header_kind.entity_kind`), a tree of the generic
    kind ``entry`` joins no family: the question must name what it asks for in every table.
    (Key columns headed differently, "Laureate" and "Author", hold the same kind of entity when
    they share anchors, which every family does; the question then names each table's kind.)
    With `tables` (tree → how the question names its table), two trees a question would name
    alike (same title and section) are never taken together: the question could not tell them
    apart. With `related` (two trees → whether their roots are on a related topic), every two
    trees of a family are related themselves: a topic group is a connected component, so two
    of its trees may be joined only through others ("1970 International Cross Country
    Championships" and "2000 Aerobic Gymnastics World Championships", both near other world
    championships, share countries and points but no topic). With `sorted_by` (tree → its list,
    `one_list`, when its section orders an article's list "By ..."), two orders of one list
    ("By area" and "By population" of microstates) are never taken together: their common
    things are the list itself.

    >>> select_family({"a": {"x", "y"}, "b": {"x", "y", "z"}, "c": {"x"}, "d": {"q"}})
    ['a', 'b']
    >>> select_family({"a": {"x", "y"}, "b": {"x", "y", "z"}, "c": {"x"}}, max_overlap=0.6)
    ['a', 'c']
    >>> select_family({"a": {"x"}, "b": {"x"}}, kinds={"a": "author", "b": "entry"})
    []
    >>> select_family({"a": {"x", "y"}, "b": {"x", "y"}, "c": {"x", "y"}},
    ...               related=lambda s, t: {s, t} != {"a", "b"})
    ['a', 'c']
    >>> select_family({"a": {"x", "y"}, "b": {"x", "y"}}, sorted_by={"a": "M|D", "b": "M|D"})
    []
    """
    ids = sorted(anchor_sets)

    def fits(a: str, b: str) -> bool:
        if kinds is not None and "entry" in (kinds[a], kinds[b]):
            return False
        if tables is not None and tables[a] == tables[b]:
            return False
        if related is not None and not related(a, b):
            return False
        if sorted_by is not None and sorted_by.get(a) and sorted_by.get(a) == sorted_by.get(b):
            return False
        return jaccard(anchor_sets[a], anchor_sets[b]) <= max_overlap

    best: tuple[int, str, str] | None = None
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            n = len(anchor_sets[a] & anchor_sets[b])
            if n and fits(a, b) and (best is None or n > best[0]):
                best = (n, a, b)
    if best is None:
        return []
    family = [best[1], best[2]]
    common = anchor_sets[best[1]] & anchor_sets[best[2]]
    rest = sorted(
        (t for t in ids if t not in family), key=lambda t: (-len(common & anchor_sets[t]), t)
    )
    for t in rest:
        if len(common & anchor_sets[t]) >= min(2, len(common)) and all(fits(t, f) for f in family):
            family.append(t)
            common = common & anchor_sets[t]
    return sorted(family)


def one_list(tree: dict[str, Any]) -> str:
    """The list a tree's table orders one way, when its section's last part says "By ..."
    (title and the parts before it), or "": "Microstate" sections "Quantitative definitions --
    By area" and "... -- By population" are one list of microstates ordered two ways.

    >>> one_list({"title": "Microstate", "section_title": "Definitions -- By area"})
    'Microstate|Definitions'
    >>> one_list({"title": "Microstate", "section_title": "Definitions -- Byzantine"})
    ''
    """
    parts = [p.strip() for p in str(tree.get("section_title") or "").split("--")]
    if not re.match(r"by\b", parts[-1].lower()):
        return ""
    return f"{tree.get('title') or ''}|{' -- '.join(parts[:-1])}"


def anchor_sets_by_tree(trees: list[dict[str, Any]]) -> dict[str, set[str]]:
    """Each tree's set of anchor ids (rows of ``leaper/find_tree_anchors``)."""
    return {t["tree_id"]: {a["id"] for a in t["anchors"] if a["id"]} for t in trees}


# the last part of a section that is a letter or a range of letters: "A", "C", "Q–R", "0-9"
_LETTERS = re.compile(r"^(?:[A-Z0-9]|[A-Z0-9]\s*[–-]\s*[A-Z0-9])$")


def family_name(tree: dict[str, Any]) -> str:
    """How `select_family` tells tables apart: as a question names them, except that the
    parts of one alphabetical list ("List of post-grunge bands", sections "A" and "C") are one
    list: a band under both letters is a slip of the article, not an answer.

    >>> family_name({"title": "Bands", "section_title": "C"})
    'Bands (an alphabetical part)'
    """
    section = str(tree.get("section_title") or "").split(" -- ")[-1].strip()
    if _LETTERS.match(section):
        return f"{tree.get('title') or tree.get('root')} (an alphabetical part)"
    return table_ref(tree).quoted()


def family_id(family: list[str]) -> str:
    """A Union task is one per family of trees, whichever biclique found it first."""
    return stable_id("leaper-union", sorted(family))
