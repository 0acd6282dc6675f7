"""Cleaning: keep large, regular, structurally homogeneous tables with a usable key column.

`check_table` returns the first reason a table fails, in this order (cheap and decisive
checks first, so a 1 MB cell is reported as such even in a two-row table):

``empty`` → ``cell_too_large`` → ``ragged`` → ``duplicate_headers`` → ``too_few_rows`` →
``too_many_rows`` → ``too_few_columns`` → ``too_many_empty`` → ``no_key_column`` →
``too_few_rows`` (once summary rows such as "Total" and rows without a key entity are dropped;
those rows are rejected one by one with their own reason).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from seekgraph.synth.ingest.config import IngestConfig
from seekgraph.synth.ingest.key_cells import key_links, key_rejection
from seekgraph.synth.ingest.records import Cell, RawTable
from seekgraph.synth.key_score import ColumnStats
from seekgraph.synth.keycolumn import choose_key_column


@dataclass(frozen=True)
class Verdict:
    """A cleaning decision: `reason` is None for a kept table, which then has a `key`.

    `dropped` lists the rows of a kept table whose key cell names no entity of the table
    (``(row index, reason, key text)``; reasons from `key_cells.key_rejection`).
    """

    reason: str | None
    detail: str = ""
    key: ColumnStats | None = None
    dropped: tuple[tuple[int, str, str], ...] = ()


def _norm_header(text: str) -> str:
    return " ".join(text.lower().split())


_LIST_TITLE = re.compile(
    r"^lists? of (.+?)(?:\s+(?:in|of|by|from|for|on|at|with|to|that|who|named)\b|\s*\(|$)",
    re.IGNORECASE,
)


def table_context(table: RawTable) -> str:
    """What may say what a table lists: its section, and the things a "List of ..." title names
    ("List of schools in Greater Western Sydney": schools). Another title ("2012 in amusement
    parks", "Nations Cup") names the article's topic, not the rows.

    >>> t = RawTable("t", "ottqa", "List of airports in Alberta", "Defunct airports", "", [], [])
    >>> table_context(t)
    'Defunct airports -- airports'
    """
    match = _LIST_TITLE.match(table.title.strip())
    if match is None:
        return table.section_title
    return f"{table.section_title} -- {match.group(1)}" if table.section_title else match.group(1)


def regularise(table: RawTable) -> RawTable:
    """Pad short rows and cut long ones to the header width (after the ragged check passed)."""
    width = table.n_cols
    rows = [(row + [Cell("")] * (width - len(row)))[:width] for row in table.rows]
    table.rows = rows
    return table


def dropped_rows(table: RawTable, key: int) -> tuple[tuple[int, str, str], ...]:
    """Rows whose key cell names no entity of its own: ``(row index, reason, key text)``.

    Besides `key_rejection`'s blank and summary keys, a row whose key cell links several
    entities that each have a row of their own is an ``aggregate_row`` ("Saaremaa and Muhu"
    above Saaremaa's and Muhu's rows: the area of both), whose values belong to no one of them.
    """
    alone = Counter(links[0] for row in table.rows if len(links := key_links(row[key])) == 1)
    dropped = []
    last = len(table.rows) - 1
    for r, row in enumerate(table.rows):
        reason = key_rejection(row[key])
        links = key_links(row[key])
        if reason is None and len(links) >= 2 and all(alone[x] for x in links):
            reason = "aggregate_row"
        if reason is None and r in (0, last) and last >= 2 and _names_the_whole(row[key], table):
            reason = "summary_row"
        if reason is not None:
            dropped.append((r, reason, row[key].text))
    return tuple(dropped)


def _names_the_whole(cell: Cell, table: RawTable) -> bool:
    """An unlinked first or last key cell that names what the title is of ("Zambia" under
    "Provinces of Zambia", "India" under "List of towns in India"): the row of the whole, its
    numbers the sums of the rows, not one of the things listed.

    >>> zambia = RawTable("t", "ottqa", "Provinces of Zambia", "", "", ["Province"], [])
    >>> _names_the_whole(Cell("Zambia"), zambia), _names_the_whole(Cell("Lusaka"), zambia)
    (True, False)
    """
    text = " ".join(cell.text.casefold().split())
    if cell.links or len(text) < 3:
        return False
    title = table.title.casefold().strip()
    return re.search(rf"\b(?:of|in)\s+(?:the\s+)?{re.escape(text)}$", title) is not None


def check_table(table: RawTable, config: IngestConfig) -> Verdict:
    """Decide whether `table` is kept; see the module doc for the order of reasons."""
    if not table.rows or not table.header:
        return Verdict("empty", "no data rows" if table.header else "no header")
    for r, row in enumerate(table.rows):
        for c, cell in enumerate(row):
            if len(cell.text) > config.max_cell_chars:
                return Verdict(
                    "cell_too_large",
                    f"row {r} column {c}: {len(cell.text):,} "
                    f"characters > {config.max_cell_chars:,}",
                )
    ragged = sum(1 for row in table.rows if len(row) != table.n_cols)
    if ragged / table.n_rows > config.max_ragged_share:
        return Verdict(
            "ragged", f"{ragged} of {table.n_rows} rows do not have {table.n_cols} cells"
        )
    names = [_norm_header(h) for h in table.header if h.strip()]
    if not config.allow_duplicate_headers and len(set(names)) < len(names):
        dupes = sorted({h for h in names if names.count(h) > 1})
        return Verdict("duplicate_headers", f"repeated column names {dupes}")
    if table.n_rows < config.min_rows:
        return Verdict("too_few_rows", f"{table.n_rows} rows < {config.min_rows}")
    if table.n_rows > config.max_rows:
        return Verdict("too_many_rows", f"{table.n_rows} rows > {config.max_rows}")
    if table.n_cols < config.min_cols:
        return Verdict("too_few_columns", f"{table.n_cols} columns < {config.min_cols}")
    regularise(table)
    cells = table.n_rows * table.n_cols
    empty = sum(1 for row in table.rows for c in row if not c.text and not c.links)
    if empty / cells > config.max_empty_share:
        return Verdict(
            "too_many_empty", f"{empty} of {cells} cells empty (> {config.max_empty_share:.0%})"
        )
    key = choose_key_column(
        table.header,
        table.rows,
        min_score=config.min_key_score,
        min_link_ratio=config.min_key_link_ratio,
        min_uniqueness=config.min_key_uniqueness,
        context=table_context(table),
    )
    if key is None:
        return Verdict("no_key_column", "no column is linked, distinct and entity-like enough")
    dropped = dropped_rows(table, key.index)
    if table.n_rows - len(dropped) < config.min_rows:
        return Verdict(
            "too_few_rows",
            f"{table.n_rows - len(dropped)} rows < {config.min_rows} after dropping "
            f"{len(dropped)} summary or blank-key rows",
        )
    return Verdict(None, key=key, dropped=dropped)
