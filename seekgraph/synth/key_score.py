"""The features of each column of a table and its key score over them (each feature and the
score's formula are set out in `seekgraph.synth.keycolumn`'s docstring; the weights in use are
`WEIGHTS`), with what makes a cell's text a literal (a year, date, number, quantity, record or
score) rather than a thing a table lists.

The score is what `seekgraph.synth.keycolumn.choose_key_column` starts from; page reading
(`seekgraph.agent.reading`) and the ingest stage read it too, and the question shapers ask
`is_literal` of values, so it stands apart from the rules that choose over it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from seekgraph.synth.ingest.records import Cell
from seekgraph.synth.ingest.values import typed_value
from seekgraph.synth.key_headers import context_signal, header_signal

WEIGHTS = {
    "link": 0.30,
    "unique": 0.25,
    "position": 0.20,
    "header": 0.25,
    "literal": -0.30,
    "empty": -0.20,
    "context": 0.25,
}
# a win-loss record, a score or a result: "12–4", "3-1-2", "W 3–1", "(2–1)"
_RECORD = re.compile(r"^[\(\[]?(?:[wldt]\s+)?\d{1,3}\s*[-–—:]\s*\d{1,3}(?:\s*[-–—:]\s*\d{1,3})?\b")


@dataclass(frozen=True)
class ColumnStats:
    """The features of one column and its key score."""

    index: int
    header: str
    link_ratio: float
    uniqueness: float
    position: float
    header_signal: float
    literal_share: float
    empty_share: float
    score: float
    context: float = 0.0


# a span of years: "1957 - 1966", "2001–present" (a streak, a tenure; a season "2009–10" is
# not one: a season's page may be what a table lists)
_YEAR_SPAN = re.compile(r"^\d{4}\s*[-–—]\s*(?:\d{4}|present)$", re.IGNORECASE)
# a quantity with its unit: "474.166 MHz", "12 km", "3.5 kg"
_MEASURE = re.compile(
    r"^[\d.,]+\s*(?:[kmg]?hz|[kmg]w|km|mi|m|ft|cm|mm|kg|lb|lbs|t|ha|acres?|%)(?:\s*\([^()]*\))?$",
    re.IGNORECASE,
)
# a count with the instances it counts: "10 (1991, 1995, ...)", "3 0 (2004, 2006, 2010)" of
# previous appearances
_COUNTED = re.compile(r"^\d{1,3}(?:\s+\d{1,3})?\s*\(")


def is_literal(text: str) -> bool:
    """A year, date, number, a span of years, a quantity with its unit ("474.166 MHz"), or a
    record, score or result: never a thing a table lists.

    >>> is_literal("474.166 MHz"), is_literal("3–1"), is_literal("25 mm Hotchkiss anti-tank gun")
    (True, True, False)
    >>> is_literal("1957 - 1966"), is_literal("2009–10")
    (True, False)
    >>> is_literal("3 0 ( 2004 , 2006 , 2010 )"), is_literal("1 (band)")
    (True, False)
    """
    low = text.strip().lower()
    return typed_value(text)[0] != "text" or bool(
        _RECORD.match(low)
        or _MEASURE.match(low)
        or _YEAR_SPAN.match(low)
        or (_COUNTED.match(low) and bool(re.search(r"\(\s*\d", low)))
    )


def column_stats(
    header: Sequence[str], rows: Sequence[Sequence[Cell]], context: str = ""
) -> list[ColumnStats]:
    """Features and score of every column (rows shorter than the header count as empty);
    `context`: the table's title and section, which may say what it lists."""
    n = len(header)
    out: list[ColumnStats] = []
    for j in range(n):
        cells = [row[j] if j < len(row) else Cell("") for row in rows]
        filled = [c for c in cells if c.text or c.links]
        total = max(len(cells), 1)
        empty_share = 1 - len(filled) / total
        link_ratio = sum(1 for c in filled if c.links) / len(filled) if filled else 0.0
        # by text alone: Wikipedia links a name at its first mention only, so a name repeated
        # unlinked is the same thing (a leader of three records is one leader)
        keys = [" ".join(c.text.lower().split()) or c.links[:1] for c in filled]
        uniqueness = len(set(keys)) / len(keys) if keys else 0.0
        literal = sum(1 for c in filled if is_literal(c.text))
        literal_share = literal / len(filled) if filled else 0.0
        position = 1 - j / n
        signal = header_signal(header[j])
        listed = context_signal(header[j], context)
        score = (
            WEIGHTS["context"] * listed
            + WEIGHTS["link"] * link_ratio
            + WEIGHTS["unique"] * uniqueness
            + WEIGHTS["position"] * position
            + WEIGHTS["header"] * signal
            + WEIGHTS["literal"] * literal_share
            + WEIGHTS["empty"] * empty_share
        )
        out.append(
            ColumnStats(
                j,
                header[j],
                round(link_ratio, 4),
                round(uniqueness, 4),
                round(position, 4),
                signal,
                round(literal_share, 4),
                round(empty_share, 4),
                round(score, 4),
                listed,
            )
        )
    return out
