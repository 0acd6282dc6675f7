"""The quality gate's checks of synthesised KP tasks: whether their chains make research.

`kp_checks` runs expanded_further, single_lookup, link_hop, join_on_kind,
answer_in_clue_table, circular, one_page and same_tables over every kept synthesised KP task; the checks
are described with the stage (`seekgraph.synth.quality`). They are apart from the stage and
from the WebLeaper checks because they read a task's triples through the shaper
(`seekgraph.synth.shaper`), not its question and tables.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import neo4j

if TYPE_CHECKING:
    from seekgraph.synth.shaper.kp import RelationSpec, Term, Triple

# synthesised KP tasks kept over one set of tables: more ask the same question of other rows
MAX_PER_TABLES = 2


def _row_subject(triple: Triple, spec: RelationSpec) -> Term:
    """The term of a KP triple that stands for the row it reads: its subject, or for an
    inverse relation ("~stadium": ? is the stadium of V) its one object."""
    if spec.inverse and len(triple.objects) == 1:
        return triple.objects[0]
    return triple.subject


def kp_checks(
    driver: neo4j.Driver,
    database: str | None,
    found: dict[str, list[tuple[str, str]]],
    circular: bool,
) -> None:
    """expanded_further, single_lookup, link_hop, join_on_kind, answer_in_clue_table, (when
    `circular`) circular, one_page, then same_tables over every kept synthesised KP task."""
    from seekgraph.synth.shaper.kp import parse_relation
    from seekgraph.synth.shaper.ops import GraphOps
    from seekgraph.synth.shaper.seeds import circular_variable
    from seekgraph.synth.shaper.store import load_tasks

    ops = GraphOps(driver, database)
    kept = load_tasks(driver, database, status="kept")
    expanded = {t.parent_id: t.task_id for t in kept if t.source == "expanded" and t.parent_id}
    passed = []
    for task in kept:
        if task.source == "published":
            continue  # published rows are kept as given; their execution is recorded apart
        if task.task_id in expanded:
            found["expanded_further"].append((task.task_id, f"by {expanded[task.task_id]}"))
            continue
        if len(task.triples) < 2:
            found["single_lookup"].append((task.task_id, f"{len(task.triples)} triple"))
            continue
        specs = [parse_relation(t.relation) for t in task.triples]
        one_table = len({(s.kind, s.table) for s in specs}) == 1 and specs[0].kind == "fact"
        if one_table and not any(not v.is_target for v in task.variables()):
            # "Which ship is listed in ... with country X and with date Y?": one row of one
            # table found by its own cells, no hop to another page
            found["single_lookup"].append((task.task_id, "no hop"))
            continue
        rows = {_row_subject(t, spec) for t, spec in zip(task.triples, specs, strict=True)}
        if one_table and specs[0].table and len(rows) == 1:
            # "What is the stadium of the team ... with location Kalmar?": every triple reads
            # one row (the team's), so the answer is another cell of the row its clue finds
            found["single_lookup"].append((task.task_id, "one row"))
            continue
        linked = [s for s in specs if s.kind == "link"]
        if linked:
            # "a title whose Wikipedia article links to the article on German language": a link
            # between two pages says they are related somehow, not how; no one asks it
            found["link_hop"].append((task.task_id, f"{len(linked)} page link(s)"))
            continue
        kind = _join_on_kind(ops, task)
        if kind:
            found["join_on_kind"].append((task.task_id, kind))
            continue
        shortcut = _answer_in_clue_table(ops, task)
        if shortcut:
            found["answer_in_clue_table"].append((task.task_id, shortcut))
            continue
        var = circular_variable(ops, task) if circular else None
        if var is not None:
            found["circular"].append((task.task_id, f"{var} is only a named entity"))
            continue
        pages = _pages(ops, task)
        if len(pages) == 1:
            # "the player whose original club is the new club of the player whose original club
            # is the new club of Chad Morrison", all in "2004 AFL draft": a chain that never
            # leaves one article is a puzzle over one page, not research across pages
            found["one_page"].append((task.task_id, pages.pop()))
            continue
        passed.append(task)
    per_tables: dict[tuple[str, ...], int] = {}
    shapes: set[tuple[tuple[str, ...], tuple[tuple[str, str], ...]]] = set()
    for task in sorted(passed, key=lambda t: t.task_id):
        tables = tuple(task.source_tables())
        # the same relations of the same tables read the other way ("a 1976 player of the
        # school of a 1962 one", then "a 1962 player of the school of a 1976 one"): one shape
        shape = (tables, tuple(sorted(_relation_table(t.relation) for t in task.triples)))
        per_tables[tables] = per_tables.get(tables, 0) + 1
        if per_tables[tables] > MAX_PER_TABLES or shape in shapes:
            found["same_tables"].append((task.task_id, ", ".join(tables)))
            continue
        shapes.add(shape)


def _pages(ops: Any, task: Any) -> set[str]:
    """The articles a KP task's table facts come from (a table the graph does not hold counts
    as its own page)."""
    tables = task.source_tables()
    ops.read_tables(set(tables))  # one query for all of them; `table_name` then reads the cache
    return {ref.title if (ref := ops.table_name(t)) is not None else t for t in tables}


def _relation_table(relation: str) -> tuple[str, str]:
    """A triple's relation and table, whichever way it reads ("~school@T" and "school@T" are
    one column).

    >>> _relation_table("~school@1962_Team"), _relation_table("school@1962_Team")
    (('school', '1962_Team'), ('school', '1962_Team'))
    """
    from seekgraph.synth.shaper.kp import parse_relation

    spec = parse_relation(relation)
    return spec.name, spec.table or ""


def _answer_in_clue_table(ops: Any, task: Any) -> str:
    """'RELATION@TABLE' when the answer is a cell of a variable's row in one table and the table
    whose clue finds that row has the same column: "the country in the 2014 table of the club
    with revenue 438.6 in the 2011 table" is read off the 2011 row, the hop adds nothing; ''
    otherwise."""
    from seekgraph.synth.shaper.kp import Var, parse_relation

    specs = [parse_relation(t.relation) for t in task.triples]
    for t, spec in zip(task.triples, specs, strict=True):
        row = _row_subject(t, spec)
        values = (t.subject,) if spec.inverse else t.objects
        answered = any(isinstance(v, Var) and v.is_target for v in values)
        if spec.kind != "fact" or not answered or not isinstance(row, Var) or row.is_target:
            continue
        for other, clue in zip(task.triples, specs, strict=True):
            same_row = clue.kind == "fact" and _row_subject(other, clue) == row
            elsewhere = same_row and clue.table and clue.table != spec.table
            if elsewhere and ops.relation_label(f"{spec.name}@{clue.table}") is not None:
                return f"{spec.name}@{clue.table}"
    return ""


def _join_on_kind(ops: Any, task: Any) -> str:
    """The first fact whose value side holds a variable of the chain (not the target) in a
    column that names kinds, as 'RELATION@TABLE'; '' when the chain passes through things."""
    from seekgraph.synth.shaper.kp import Var, parse_relation

    for t in task.triples:
        spec = parse_relation(t.relation)
        if spec.kind != "fact":
            continue
        values = (t.subject,) if spec.inverse else t.objects
        hop = any(isinstance(v, Var) and not v.is_target for v in values)
        if hop and ops.names_kinds(t.relation):
            return f"through a value of {spec.name}@{spec.table}"
    return ""
