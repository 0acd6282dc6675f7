"""The quality gate: checks every kept task must pass before agents and trainers see it.

Checks (each a query or a proof by query; a failing task is set ``rejected`` with the check's
name as its reason, and counted in the stage report):

- ``summary_answer``: a target is a table's summary or placeholder row ("Total", "-");
- ``invented_id``: a target entity id is neither a Wikipedia page nor an explicit
  ``unlinked:`` mention;
- ``duplicate_question``: another kept task asks the same question (the smaller id stays);
- ``attribute_absent``: a WebLeaper question asks for an attribute no gold record holds;
- ``circular``: a KP task's variable can only be an entity the question names
  (`seekgraph.synth.shaper.seeds.circular_variable`, executed per variable);
- ``single_lookup``: a synthesised KP task of one triple (a seed that was never expanded), or
  of several triples of one table on the target alone or all on one row (a row found by its own
  cells, the answer another cell of it): one lookup in one table, nothing to research; its
  expansions are the tasks;
- ``expanded_further``: a synthesised KP task that a kept task expands (layer-wise expansion
  keeps the answer set): of one lineage only the deepest task is kept, so no two kept tasks
  share an answer set and a seed;
- ``join_on_kind``: a synthesised KP task's chain passes through a value of a column that names
  kinds, not things (`seekgraph.synth.shaper.ops.GraphOps.names_kinds`: its rows share their
  values, as positions, kit makers or degrees do): "a position that is the position of the
  linebacker drafted 17th" joins two rows by coincidence;
- ``partial_table``: a WebLeaper question asks "which ... are listed" over a table that is a
  selection (`seekgraph.synth.leaper.selection`) without saying so: a Basic question must name
  the first rows of a table cut at its source's cap, or say the table gives a selection; a
  Union or Reverse-Union question must mark each such table ("first 20 rows", "a selection");
  a table with rows ingest could not name (``unnamed_rows``: a painting's long title read as
  prose) has no complete gold, so every task over it is rejected;
- ``kind_from_header``: the kind a WebLeaper question names ("Which schools ...") is not what
  most of its answers are by their own pages (`seekgraph.synth.kinds.kind_fits`), or it is the
  generic "entries";
- ``attribute_debris``: an attribute a WebLeaper question asks for is header debris
  (`seekgraph.synth.phrasing.debris.attribute_debris`: punctuation, star marks, newlines,
  unexplained abbreviations).
- ``key_not_entity``: most key cells of a task's table are records, scores, dates or numbers
  (`seekgraph.synth.keycolumn.is_literal`), not things the table lists;
- ``one_thing_split``: a key cell naming one thing was split into several answers
  (`seekgraph.synth.ingest.cell_lists.lists_several` says it does not list several);
- ``value_of_other``: a gold value is a linked page about something else (a season page, "X at
  the Y Games"), a hidden sort key ("2009.1 2009") or a tie marker ("=20");
- ``rows_merged``: an answer spans several rows of one of its tables and its asked values no
  longer line up row by row (lists of different lengths) and the record does not give them
  row by row (``rows``); one row in each table of a Union family is no merge.
- ``names_glued``: a key cell of one of its tables runs several people's names together with
  some unlinked (a relay team; `seekgraph.synth.ingest.cell_lists.glued_names`): those members
  cannot be listed apart, so the task's list cannot be given right;
- ``ambiguous_table``: a WebLeaper question names a table by words (title, section or, without
  one, columns: `seekgraph.synth.phrasing.tables.TableRef`) that name another table of the
  graph too (an article's men's and women's results, both without a section);
- ``split_leak``: a task whose source tables are some held-out and some train
  (`seekgraph.synth.split`); every other kept task gets the split of its tables, so no table is a
  source of a held-out and of a train task.

Ingest and synthesis already avoid all but the last; the gate proves it on the stored graph, so a
task written by an older version, another tool or a hand edit is caught too. Running it again
finds nothing new (idempotent).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import neo4j

from seekgraph.common.answers import gold_records
from seekgraph.common.config import option
from seekgraph.graphdb import cypher
from seekgraph.graphdb.stages import StageReport, save_rejections
from seekgraph.synth.head_nouns import section_kind, title_kind
from seekgraph.synth.ingest.cell_lists import glued_names, lists_several, median_words
from seekgraph.synth.ingest.cells import BLANK_KEYS
from seekgraph.synth.ingest.key_cells import PLACEHOLDER_STARTS, SUMMARY_WORDS
from seekgraph.synth.key_score import is_literal
from seekgraph.synth.kinds import kind_fits
from seekgraph.synth.leaper.selection import first_rows, table_selection, unnamed_rows
from seekgraph.synth.phrasing.debris import attribute_debris
from seekgraph.synth.phrasing.tables import TableRef
from seekgraph.synth.split import (
    HELDOUT_PERCENT,
    LEAK,
    NONE,
    crossing_tasks,
    leak_detail,
    source_units,
    sources_of,
    split_of_sources,
)

if TYPE_CHECKING:
    from seekgraph.synth.shaper.kp import RelationSpec, Term, Triple

STAGE = "quality"
CHECKS = (
    "summary_answer",
    "invented_id",
    "duplicate_question",
    "attribute_absent",
    "circular",
    "single_lookup",
    "expanded_further",
    "join_on_kind",
    "partial_table",
    "kind_from_header",
    "attribute_debris",
    "key_not_entity",
    "one_thing_split",
    "value_of_other",
    "rows_merged",
    "names_glued",
    "ambiguous_table",
    "split_leak",
)
# a value that is another page's title or carries sort-key or tie-marker debris
_OTHER_VALUE = re.compile(r"\bat the \d{4}\b|^\d{4}\S* .+ season$|^(\d+)\.\d+\s+\1\b|^=\s*\d+$")
# the kind(s) a templated WebLeaper question names: Basic and Union ("Which X are listed in"),
# Union over tables whose keys differ ("..., as Y, in"), Reverse-Union ("Of the X listed")
_NAMED_KINDS = re.compile(r"^(?:Which|Of the) (.+?) (?:are )?listed in\b")
_ALSO_AS = re.compile(r"\bas ([^,]+), in \"")


@dataclass(frozen=True)
class QualityConfig:
    """Settings of the quality gate (config section ``[quality]``; flags override)."""

    circular: bool = option(
        True, "Prove per KP task that no variable is pinned to a named entity (one query each)."
    )
    heldout_percent: int = option(
        HELDOUT_PERCENT,
        "Share of source tables held out (by a hash of the table id; the tables of a Union "
        "family as one unit); a task is held out iff all its tables are, and one over both "
        "sides is rejected split_leak.",
        min=0,
        max=100,
    )


def asked_relations(variant: str, spec: dict[str, Any], tree: dict[str, Any]) -> list[str]:
    """The attributes a WebLeaper question asks for (Union: `asked`, the shared relations most
    answers hold; Reverse-Union: the non-pivot ones)."""
    if variant == "reverse-union":
        return list(tree.get("relations") or [])
    return list(spec.get("asked", spec.get("relations")) or [])


def absent_attributes(row: dict[str, Any]) -> list[str]:
    """Asked relations that no gold record of the task holds a value for."""
    spec = json.loads(row["spec_json"] or "{}")
    tree = json.loads(row["tree_json"] or "{}")
    held = {k for r in gold_records(row["answer_json"]) for k, v in r.attributes.items() if v}
    return [r for r in asked_relations(row["variant"], spec, tree) if r not in held]


def named_kinds(question: str) -> list[str]:
    """The kind words a templated WebLeaper question names ([] when it names none, as "The
    Wikipedia table ... lists things of several kinds" does, or was paraphrased away).

    >>> named_kinds('Which laureates listed in the Wikipedia table "A" are also listed, as authors, in "B"?')
    ['laureates', 'authors']
    """
    match = _NAMED_KINDS.match(question)
    if not match:
        return []
    first = match.group(1).split(" listed in ")[0]
    return [first, *_ALSO_AS.findall(question)]


def _task_tables(row: dict[str, Any]) -> list[str]:
    spec = json.loads(row["spec_json"] or "{}")
    return list(spec.get("table_ids") or ([spec["table_id"]] if spec.get("table_id") else []))


def partial_detail(row: dict[str, Any], tables: dict[str, dict[str, Any]]) -> str:
    """Why a task's question reads as the full list of a table that is a selection ('' when it
    does not)."""
    question = row["question"] or ""
    capped = selections = 0
    for tid in _task_tables(row):
        table = tables.get(tid)
        if table is None:
            continue
        why = table_selection(table, [str(n or "") for n in table["names"]])
        if why == "unnamed_rows":
            unnamed = unnamed_rows(table["dropped_reasons"] or [])
            return f"{tid}: {unnamed} rows of its list have no name ingest could read"
        if why == "row_cap":
            capped += 1
            said = f"first {first_rows(table['n_rows'], table['source'])} rows"
            if question.count(said) < capped:
                return f"{tid}: {table['n_rows']} rows, the source's cap, asked as the full list"
        elif why:
            selections += 1
            said = "gives a selection" if row["variant"] == "basic" else "a selection)"
            if question.count(said) < (1 if row["variant"] == "basic" else selections):
                return f"{tid}: a selection ({why}), asked as the full list"
    return ""


def _row_subject(triple: Triple, spec: RelationSpec) -> Term:
    """The term of a KP triple that stands for the row it reads: its subject, or for an
    inverse relation ("~stadium": ? is the stadium of V) its one object."""
    if spec.inverse and len(triple.objects) == 1:
        return triple.objects[0]
    return triple.subject


def table_reading_detail(row: dict[str, Any], tables: dict[str, dict[str, Any]]) -> dict[str, str]:
    """How a task's tables were read wrong, per check (key_not_entity, one_thing_split,
    value_of_other, rows_merged, names_glued; see the module doc); {} when they were read
    right."""
    found: dict[str, str] = {}
    records = gold_records(row["answer_json"])
    answers = {r.entity_id for r in records if r.entity_id}
    rows_of: dict[tuple[str, str], int] = {}  # (table, anchor) -> rows: a Union spans tables
    for tid in _task_tables(row):
        table = tables.get(tid)
        if table is None:
            continue
        rows = [r for r in table.get("rows") or [] if r.get("anchors")]
        texts = [str(r.get("text") or "") for r in rows]
        literal = [t for t in texts if t and is_literal(t)]
        if texts and 2 * len(literal) > len(texts):
            found.setdefault("key_not_entity", f"{tid}: key cells like {literal[:3]}")
        usual = median_words(texts)
        for r in rows:
            linked_here = [a for a in r["anchors"] if a.startswith("/wiki/")]
            if glued_names(str(r.get("text") or ""), linked_here, usual):
                found.setdefault("names_glued", f"{tid}: {r['text']!r}")
            anchors = [a for a in r["anchors"] if a in answers]
            for a in r["anchors"]:
                rows_of[tid, a] = rows_of.get((tid, a), 0) + 1
            linked = [a for a in r["anchors"] if a.startswith("/wiki/")]
            if len(anchors) > 1 and len(linked) > 1 and not lists_several(r["text"] or "", linked):
                found.setdefault("one_thing_split", f"{tid}: {r['text']!r} -> {anchors}")
    asked = set(
        asked_relations(
            row["variant"],
            json.loads(row["spec_json"] or "{}"),
            json.loads(row["tree_json"] or "{}"),
        )
    )
    for record in records:
        for relation, values in record.attributes.items():
            bad = [v for v in values if _OTHER_VALUE.search(v)]
            if bad and relation in asked:
                found.setdefault("value_of_other", f"{record.name} {relation}: {bad[0]!r}")
        spans = max((n for (_, a), n in rows_of.items() if a == record.entity_id), default=0)
        lengths = {len(v) for k, v in record.attributes.items() if v and k in asked}
        if spans > 1 and len(lengths) > 1 and not record.rows:
            found.setdefault(
                "rows_merged", f"{record.name}: {spans} rows, value lists of {sorted(lengths)}"
            )
    return found


def twin_tables(
    driver: neo4j.Driver, database: str | None, tables: list[dict[str, Any]]
) -> dict[str, str]:
    """{table_id: why} for each of `tables` that a question names by the same words as another
    table of the graph (one read of the tables sharing their titles)."""
    titles = sorted({str(t["title"] or "") for t in tables})
    names: dict[str, dict[frozenset[str], list[str]]] = {}
    for batch in cypher.batched(titles, 500):
        for r in cypher.read(driver, "quality/find_tables_titled", database=database, titles=batch):
            ref = TableRef(r["title"], r["section_title"] or "", columns=tuple(r["headers"] or ()))
            same = names.setdefault(ref.quoted(marks=False), {})
            same.setdefault(frozenset(r["anchors"] or ()), []).append(r["table_id"])
    twins: dict[str, str] = {}
    for name, contents in names.items():
        # one table read twice (the same rows) is one table: its questions are duplicates
        ids = sorted(tid for copies in contents.values() for tid in copies)
        for tid in ids if len(contents) > 1 else ():
            others = sorted(set(ids) - {tid})
            twins[tid] = f"{tid}: {name} also names {', '.join(others[:3])}"
    return twins


def _leaper_checks(
    driver: neo4j.Driver, database: str | None, found: dict[str, list[tuple[str, str]]]
) -> None:
    """attribute_absent, partial_table, kind_from_header and attribute_debris over every kept
    WebLeaper task (one read of the tasks, one of their tables, one of their answers' pages)."""
    rows = cypher.read(driver, "quality/find_leaper_records", database=database)
    table_ids = sorted({t for row in rows for t in _task_tables(row)})
    tables = {
        r["table_id"]: r
        for batch in cypher.batched(table_ids, 500)
        for r in cypher.read(
            driver, "quality/find_table_selections", database=database, table_ids=batch
        )
    }
    answers = {
        row["task_id"]: [r.entity_id for r in gold_records(row["answer_json"]) if r.entity_id]
        for row in rows
    }
    from seekgraph.synth.shaper.ops import GraphOps

    entity_ids = sorted({e for ids in answers.values() for e in ids})
    kinds = dict(zip(entity_ids, GraphOps(driver, database).page_kinds(entity_ids), strict=True))
    twins = twin_tables(driver, database, list(tables.values()))
    for row in rows:
        ambiguous = [twins[t] for t in _task_tables(row) if t in twins]
        if ambiguous:
            found["ambiguous_table"].append((row["task_id"], ambiguous[0]))
        absent = absent_attributes(row)
        if absent:
            found["attribute_absent"].append((row["task_id"], ", ".join(absent)))
        partial = partial_detail(row, tables)
        if partial:
            found["partial_table"].append((row["task_id"], partial))
        question = row["question"] or ""
        page_kinds = [kinds.get(e) for e in answers[row["task_id"]]]
        listed = {
            said[1]
            for tid in _task_tables(row)
            if tid in tables
            for said in (
                title_kind(tables[tid].get("title")),
                section_kind(tables[tid].get("section_title")),
            )
            if said
        }
        misnamed = [k for k in named_kinds(question) if not kind_fits(k, page_kinds, k in listed)]
        if misnamed:
            said = ", ".join(sorted({k for k in page_kinds if k})[:5]) or "no page"
            found["kind_from_header"].append(
                (row["task_id"], f"names {misnamed[0]!r}; the answers' pages say: {said}")
            )
        debris = attribute_debris(question)
        if debris:
            found["attribute_debris"].append((row["task_id"], f"asks {debris!r}"))
        for check, detail in table_reading_detail(row, tables).items():
            found[check].append((row["task_id"], detail))


def _kp_checks(
    driver: neo4j.Driver,
    database: str | None,
    found: dict[str, list[tuple[str, str]]],
    circular: bool,
) -> None:
    """expanded_further, single_lookup and (when `circular`) circular over every kept
    synthesised KP task."""
    from seekgraph.synth.shaper.kp import parse_relation
    from seekgraph.synth.shaper.ops import GraphOps
    from seekgraph.synth.shaper.seeds import circular_variable
    from seekgraph.synth.shaper.store import load_tasks

    ops = GraphOps(driver, database)
    kept = load_tasks(driver, database, status="kept")
    expanded = {t.parent_id: t.task_id for t in kept if t.source == "expanded" and t.parent_id}
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
        kind = _join_on_kind(ops, task)
        if kind:
            found["join_on_kind"].append((task.task_id, kind))
            continue
        var = circular_variable(ops, task) if circular else None
        if var is not None:
            found["circular"].append((task.task_id, f"{var} is only a named entity"))


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


def _splits(
    driver: neo4j.Driver, database: str | None, heldout_percent: int, leaks: list[tuple[str, str]]
) -> tuple[list[dict[str, str]], int]:
    """The split of each kept task from its sources and their units (a Union family's tables
    decide together, `source_units`): rows for `set_task_splits`, only where it changes; the
    tasks over both sides appended to `leaks`; and how many tasks have no known source (their
    split is left as synthesis wrote it)."""
    rows: list[dict[str, str]] = []
    unsourced = 0
    tasks = cypher.read(driver, "quality/find_task_sources", database=database)
    # a Union family's tables go to one side together (families of every status: stable)
    units = source_units(cypher.read(driver, "quality/find_table_families", database=database))
    for r in tasks:
        split = split_of_sources(r["tables"], r["pages"], heldout_percent, units)
        if split == LEAK:
            leaks.append((r["task_id"], leak_detail(sources_of(r), heldout_percent, units)))
        elif split == NONE:
            unsourced += 1
        elif split != r["split"]:
            rows.append({"task_id": r["task_id"], "split": split})
    return rows, unsourced


def _note_split(
    driver: neo4j.Driver, database: str | None, report: StageReport, unsourced: int
) -> None:
    """What the split looks like on the stored graph after the gate: tasks per side, train
    tasks sharing a source with a held-out task (0 unless a task has no known source), and
    answer entities that still occur on both sides."""
    rows = cypher.read(driver, "quality/find_task_sources", database=database)
    for side in ("train", "heldout"):
        report.notes[f"split {side} tasks"] = sum(1 for r in rows if r["split"] == side)
    report.notes["split tasks without a known source"] = unsourced
    report.notes["split train tasks sharing a source with a held-out task"] = len(
        crossing_tasks(rows)
    )
    shared = cypher.read(driver, "quality/count_shared_answers", database=database)
    if shared:
        report.notes["split answer entities on both sides"] = (
            f"{shared[0]['shared']} of {shared[0]['heldout_answers']} held-out answers"
        )


def run_quality(
    driver: neo4j.Driver,
    database: str | None,
    config: QualityConfig,
    progress: Callable[[int], None] | None = None,
) -> StageReport:
    """Run every check, reject the failing tasks, count kept tasks and failures per check."""
    report = StageReport(STAGE)
    failures: dict[str, str] = {}  # task id -> first failing check
    details: dict[str, str] = {}
    found: dict[str, list[tuple[str, str]]] = {check: [] for check in CHECKS}
    query_checks = {
        "summary_answer": "quality/find_summary_answers",
        "invented_id": "quality/find_invented_targets",
        "duplicate_question": "quality/find_duplicate_questions",
    }
    params = {
        "summary": sorted(SUMMARY_WORDS),
        "blank": sorted(BLANK_KEYS),
        "placeholder_starts": sorted(PLACEHOLDER_STARTS),
    }
    for check, query in query_checks.items():
        rows = cypher.read(driver, query, database=database, **params)
        found[check] = [(r["task_id"], str(r["detail"])) for r in rows]
        if progress is not None:
            progress(1)
    _leaper_checks(driver, database, found)
    if progress is not None:
        progress(1)
    _kp_checks(driver, database, found, config.circular)
    if progress is not None:
        progress(1)
    splits, unsourced = _splits(driver, database, config.heldout_percent, found["split_leak"])
    if progress is not None:
        progress(1)
    for check in CHECKS:
        for task_id, detail in found[check]:
            if task_id not in failures:
                failures[task_id], details[task_id] = check, detail
        report.notes[f"check {check}"] = len(found[check])
    for task_id, reason in sorted(failures.items()):
        report.reject(task_id, reason, details[task_id])
    # a gated task is not checked again, so its rejection is written before its status
    save_rejections(driver, report, database)
    rows = [{"task_id": t, "reason": reason} for t, reason in sorted(failures.items())]
    cypher.run_batches(driver, "quality/set_gate_rejections", rows, database=database)
    kept_splits = [s for s in splits if s["task_id"] not in failures]
    cypher.run_batches(driver, "quality/set_task_splits", kept_splits, database=database)
    _note_split(driver, database, report, unsourced)
    for r in cypher.read(driver, "report/count_tasks", database=database):
        if r["status"] == "kept":
            report.keep(int(r["n"]))
            report.notes[f"kept {r['kind']} {r['variant']}"] = int(r["n"])
    return report.finish()
