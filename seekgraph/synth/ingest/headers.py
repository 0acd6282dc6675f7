"""Telling a header row that is really a data row (the source took the first data row as its
header).

A header cell *looks like data* when it is shaped like the cells below it rather than like a
column name: it is a proper name (two or more words, every word of four letters or more
capitalised: ``Robert B. Abrams``, not ``Model designation`` or ``Call sign``) that links a page
while most cells of its column link pages too, and no column word (``Name``, ``Pos``,
``Village``: `key_headers.header_signal` is 0 and it is no place word); or it is a year over a
column of years. The row is data when at least two cells,
and at least a third of the header, look like data. Such a row is read as the table's first data
row and the header becomes blank (an unnamed column is never asked about). O(rows × columns).

>>> from seekgraph.synth.ingest.records import Cell
>>> header = [Cell("Robert B. Abrams", ("/wiki/R",)), Cell("Iraq War", ("/wiki/Iraq_War",))]
>>> rows = [[Cell("Lucian Adams", ("/wiki/L",)), Cell("World War II", ("/wiki/WWII",))]]
>>> header_is_data(header, rows)
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from seekgraph.synth.ingest.records import Cell
from seekgraph.synth.ingest.values import typed_value
from seekgraph.synth.key_headers import PLACE_WORDS, header_signal


def _column(rows: Sequence[Sequence[Cell]], j: int) -> list[Cell]:
    return [row[j] for row in rows if j < len(row) and (row[j].text or row[j].links)]


def _looks_like_data(head: Cell, cells: list[Cell]) -> bool:
    if not head.text.strip() or not cells:
        return False
    if typed_value(head.text)[0] == "year":
        return sum(1 for c in cells if typed_value(c.text)[0] == "year") * 2 >= len(cells)
    words = re.findall(r"[a-z]+", head.text.lower())
    if not head.links or header_signal(head.text) != 0 or any(w in PLACE_WORDS for w in words):
        return False
    long = [w for w in head.text.split() if len(w) >= 4]
    proper = len(head.text.split()) >= 2 and bool(long) and all(w[0].isupper() for w in long)
    return proper and sum(1 for c in cells if c.links) * 2 > len(cells)


def header_is_data(header: Sequence[Cell], rows: Sequence[Sequence[Cell]]) -> bool:
    """True when the header row is a data row (see the module doc)."""
    like = sum(1 for j, head in enumerate(header) if _looks_like_data(head, _column(rows, j)))
    return like >= 2 and like * 3 >= len(header)
