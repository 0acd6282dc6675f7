"""The quality gate's check on the attributes a finished question asks for: no header debris.

`seekgraph.synth.phrasing.attributes` phrases each attribute, but a question is also checked
as written: a newline, punctuation or star marks, an unexplained abbreviation or a one- or
two-letter word in its "For each, give ..." part means a header reached the question raw.
"""

from __future__ import annotations

import re

from seekgraph.synth.phrasing.attribute_words import (
    ABBREVIATIONS,
    DETERMINERS,
    UNCLEAR_ABBREVIATIONS,
)
from seekgraph.synth.phrasing.headers import UNIT_WORDS

_SHORT_WORDS = frozenset(["of", "in", "by", "to", "at", "on", "or", "as", "tv", "uk", "us"])
_ASKED = re.compile(r"For each, give (.+?)(?:, as each table states them)?\.(?:\s|$)", re.DOTALL)


def attribute_debris(question: str) -> str:
    """The first debris in the attributes a question asks for ('' when it has none): a
    newline, punctuation or star marks, an abbreviation left unexplained ("pos", "h / a",
    "F–A"), a one- or two-letter word, a header phrase after "their" that starts with a
    determiner ("their this week in reality") or a quoted column name.

    >>> attribute_debris("Which drivers ...? For each, give their constructor and their pos.")
    'pos'
    >>> attribute_debris("Which drivers ...? For each, give their constructor and the year.")
    ''
    """
    if "\n" in question:
        return "newline"
    match = _ASKED.search(question)
    if not match:
        return ""
    asked = match.group(1)
    bad = re.search(r"[\"*:/#\[\]{}()!?;†‡^~]", asked)
    if bad:
        return bad.group(0)
    tokens = [t.strip(",") for t in asked.split()]
    for i, token in enumerate(tokens):
        low = token.lower()
        previous = tokens[i - 1].lower() if i else ""
        if re.fullmatch(r"[^\W\d_]{1,2}[–—-][^\W\d_]{1,2}", low):
            return token
        if low in UNCLEAR_ABBREVIATIONS or (low in ABBREVIATIONS and ABBREVIATIONS[low] != low):
            return token
        if (
            len(low) <= 2
            and low not in _SHORT_WORDS
            and not (previous == "in" and low in UNIT_WORDS)
        ):
            return token
        if previous == "their" and low in DETERMINERS:
            return f"their {token}"
    return ""
