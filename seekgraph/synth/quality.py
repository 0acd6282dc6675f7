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
- ``link_hop``: a synthesised KP task's chain goes through a link between two pages ("a title
  whose Wikipedia article links to the article on German language"): a link says two pages
  are related, not how, so no one asks it;
- ``join_on_kind``: a synthesised KP task's chain passes through a value of a column that names
  kinds, not things (`seekgraph.synth.shaper.ops.GraphOps.names_kinds`: its rows share their
  values, as positions, kit makers or degrees do): "a position that is the position of the
  linebacker drafted 17th" joins two rows by coincidence;
- ``answer_in_clue_table``: a synthesised KP task's answer is a cell of a variable's row in one
  table, and the table whose clue finds that row has the same column ("the country in the 2014
  table of the club with revenue 438.6 in the 2011 table"): the answer is read off the clue's
  own row, the hop to the other table adds nothing;
- ``one_page``: every fact of a synthesised KP task's chain comes from tables of one article
  ("the player whose original club is the new club of the player ... of Chad Morrison", all
  in "2004 AFL draft"): a puzzle over one page, not a chain across the offline web;
- ``same_tables``: more than `seekgraph.synth.quality_kp.MAX_PER_TABLES` synthesised KP tasks
  join the same tables (the smallest ids stay), or one reads the same relations of the same
  tables as a kept one, either way: the others ask the same question of other rows ("the
  Warrington player with the same previous club as X of Salford", then as Y, then the
  mirror), which teaches nothing new;
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

The checks of WebLeaper tasks are in `seekgraph.synth.quality_leaper`, those of KP tasks in
`seekgraph.synth.quality_kp`; this module runs them with the query checks and the split, and
rejects the failing tasks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import neo4j

from seekgraph.common.config import option
from seekgraph.graphdb import cypher
from seekgraph.graphdb.stages import StageReport, save_rejections
from seekgraph.synth.ingest.cells import BLANK_KEYS
from seekgraph.synth.ingest.key_cells import PLACEHOLDER_STARTS, SUMMARY_WORDS
from seekgraph.synth.quality_kp import kp_checks
from seekgraph.synth.quality_leaper import leaper_checks
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

STAGE = "quality"
CHECKS = (
    "summary_answer",
    "invented_id",
    "duplicate_question",
    "attribute_absent",
    "circular",
    "single_lookup",
    "expanded_further",
    "link_hop",
    "join_on_kind",
    "answer_in_clue_table",
    "one_page",
    "same_tables",
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
    leaper_checks(driver, database, found)
    if progress is not None:
        progress(1)
    kp_checks(driver, database, found, config.circular)
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
