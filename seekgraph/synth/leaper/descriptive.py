"""Which relations describe a thing, and which only measure or score it.

A Reverse-Union task names its anchor by clues ("the author whose nationality is Nigerian and
whose genre is poetry") and then asks for the others sharing a pivot value. A person describes
a thing by what it is (nationality, team, genre, birthplace, year), never by a count, a rank,
a result or a score: "the country whose gold is 3 and whose rank is 7" is a lookup of numbers,
not a description, and "the team whose result is W 2–1" names a match, not the team. The
rubric counts such clues and pivots as ill posed, so they are never used.

A relation is judged by its header words and by the values it holds in the family's tables:
mostly numbers, scores, results or ranks make it a measure whatever its header says.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# header words of columns that count, rank, score or give a result
_MEASURE_WORDS = {
    "score", "scores", "result", "results", "points", "pts", "goals", "apps", "appearances",
    "caps", "wins", "losses", "draws", "won", "lost", "drawn", "total", "count", "margin",
    "attendance", "votes", "percentage", "pct", "gold", "silver", "bronze", "medals", "seats",
    "population", "average", "avg", "gf", "ga", "gd", "diff", "tally", "w", "l", "d", "gp",
    "pld", "mp", "sales", "gross", "earnings", "rating", "ratings", "viewers", "aggregate",
    "agg", "length", "drought", "duration", "capacity",
    # who won or lost an event is its result, not what the event is ("whose winner is Paul
    # Harney" names one edition of a tournament, not the tournament)
    "winner", "winners", "champion", "champions", "runner", "runners", "loser", "losers",
    "finalist", "finalists", "victor", "placing", "placings",
}  # fmt: skip
_SCORE = re.compile(r"^[a-z]?\s*\d+\s*[–—-]\s*\d+\b")
_RANK = re.compile(r"^(?:t-?|=)?\d{1,3}(?:st|nd|rd|th)?$|^\d{1,3}(?:st|nd|rd|th)\b")
_RESULT_WORDS = {
    "w", "l", "d", "won", "lost", "win", "loss", "draw", "drawn", "winner", "winners",
    "runner-up", "runners-up", "champion", "champions", "eliminated", "retired", "dnf", "dns",
    "dsq", "dq", "withdrew", "nominated", "qualified", "relegated", "promoted", "advanced",
}  # fmt: skip
_PERCENT = re.compile(r"^[\d.,]+\s*%$")
_DURATION = re.compile(r"^\d+:\d{2}(?::\d{2})?(?:\.\d+)?$")


def _measure_value(kind: str, name: str) -> bool:
    """A count, score, rank, percentage, duration or result ("W 2–1", "3rd", "DNF")."""
    if kind == "number":
        return True
    if kind != "text":
        return False
    text = name.strip().lower()
    first = text.split(" ", 1)[0]
    return (
        any(p.match(text) for p in (_SCORE, _RANK, _PERCENT, _DURATION))
        or text in _RESULT_WORDS
        or (first in _RESULT_WORDS and any(c.isdigit() for c in text))
    )


def is_descriptive(words: str, values: Iterable[tuple[str, str]]) -> bool:
    """Whether a relation (its header `words`, and its `values` as ``(kind, shown text)`` with
    kind entity, year, date, number or text) describes what a thing is.

    >>> is_descriptive("nationality", [("entity", "Nigeria"), ("entity", "Kenya")])
    True
    >>> is_descriptive("year", [("year", "1980"), ("year", "1983")])
    True
    >>> is_descriptive("gold", [("number", "3"), ("number", "1")])
    False
    >>> is_descriptive("final", [("text", "W 2–1"), ("text", "L 0–3")])
    False
    >>> is_descriptive("position", [("text", "Forward"), ("text", "Goalkeeper")])
    True
    >>> is_descriptive("position", [("text", "3rd"), ("text", "1st"), ("text", "DNF")])
    False
    >>> is_descriptive("rank", [("entity", "Captain")])
    True
    >>> is_descriptive("points", [("text", "n/a")])
    False
    >>> is_descriptive("winner", [("entity", "Paul Harney"), ("entity", "Arnold Palmer")])
    False
    """
    tokens = set(re.findall(r"[a-z]+", words.lower()))
    if tokens & _MEASURE_WORDS:
        return False
    shown = [(kind, str(name)) for kind, name in values]
    if not shown:
        return False
    measures = sum(_measure_value(kind, name) for kind, name in shown)
    return measures * 2 < len(shown)
