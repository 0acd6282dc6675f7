"""The quality gate's checks of WebLeaper tasks: what their questions ask of their tables.

`leaper_checks` runs attribute_absent, partial_table, kind_from_header, attribute_debris,
ambiguous_table and the table-reading checks (key_not_entity, one_thing_split, value_of_other,
rows_merged, names_glued) over every kept WebLeaper task; the checks are described with the
stage (`seekgraph.synth.quality`). They are apart from the stage because they read a task's
question, spec and gold records against its tables, which KP tasks and the stage's bookkeeping
(rejections, splits) never do.
"""

from __future__ import annotations

import json
import re
from typing import Any

import neo4j

from seekgraph.common.answers import gold_records
from seekgraph.graphdb import cypher
from seekgraph.synth.head_nouns import section_kind, title_kind
from seekgraph.synth.ingest.cell_lists import glued_names, lists_several, median_words
from seekgraph.synth.key_score import is_literal
from seekgraph.synth.kinds import kind_fits
from seekgraph.synth.leaper.selection import first_rows, table_selection, unnamed_rows
from seekgraph.synth.phrasing.debris import attribute_debris
from seekgraph.synth.phrasing.tables import TableRef

# a value that is another page's title or carries sort-key or tie-marker debris
_OTHER_VALUE = re.compile(r"\bat the \d{4}\b|^\d{4}\S* .+ season$|^(\d+)\.\d+\s+\1\b|^=\s*\d+$")
# the kind(s) a templated WebLeaper question names: Basic and Union ("Which X are listed in"),
# Union over tables whose keys differ ("..., as Y, in"), Reverse-Union ("Of the X listed")
_NAMED_KINDS = re.compile(r"^(?:Which|Of the) (.+?) (?:are )?listed in\b")
_ALSO_AS = re.compile(r"\bas ([^,]+), in \"")


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
    does not).

    >>> table = {"title": "Modern Library 100 Best Novels", "section_title": "Editors' list",
    ...     "n_rows": 10, "source": "ottqa", "names": ["Ulysses"], "dropped": [],
    ...     "dropped_reasons": []}
    >>> row = {"spec_json": '{"table_id": "ml"}', "variant": "basic"}
    >>> partial_detail({**row, "question": 'Which novels are listed in "Modern ..."?'}, {"ml": table})
    'ml: 10 rows, a cut of its list, asked as the full list'
    >>> partial_detail({**row, "question": "Which novels are listed in the first 10 rows of ..."},
    ...     {"ml": table})
    ''
    """
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
            shown = first_rows(
                table["n_rows"], table["source"], table["title"], table["section_title"]
            )
            if question.count(f"first {shown} rows") < capped:
                return f"{tid}: {table['n_rows']} rows, a cut of its list, asked as the full list"
        elif why:
            selections += 1
            said = "gives a selection" if row["variant"] == "basic" else "a selection)"
            if question.count(said) < (1 if row["variant"] == "basic" else selections):
                return f"{tid}: a selection ({why}), asked as the full list"
    return ""


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
            ref = TableRef(
                r["title"],
                r["section_title"] or "",
                columns=tuple(r["headers"] or ()),
                first_row=str(r["first_row"] or ""),
            )
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


def leaper_checks(
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
