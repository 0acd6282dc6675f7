"""What a column's values look like: marks, placings, years and spans, episode numbers, codes,
running numbers. `seekgraph.synth.phrasing.attributes.phrase_attribute` reads an attribute's
phrase (or the reason it cannot be asked) from these shapes as much as from its header.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

YEAR_SPAN = re.compile(r"^\(?(1[0-9]\d\d|20\d\d)\s*[–—-]\s*(1[0-9]\d\d|20\d\d)\)?$")


YEAR = re.compile(r"(?:1[0-9]|20)\d\d")


_PLACING = re.compile(
    r"(?:eliminated|withdrew|winner|won|runner[- ]up|finalist|quit|disqualified)", re.IGNORECASE
)


def flags(texts: Sequence[str]) -> bool:
    """Whether a column holds yes/no marks: every cell a mark or a "Yes ..." / "No ...", and at
    least one a yes or a no ("Yes", "Live", "Yes (delayed)" of a broadcast's finals).

    >>> flags(["Yes", "Live", "Yes (delayed)"]), flags(["Live", "Delayed"]), flags(["No", "5"])
    (True, False, False)
    >>> flags(["Yes / Live", "No"]), flags(["No. 5", "No. 7"])
    (True, False)
    """
    lowered = [t.strip().lower().rstrip(".") for t in texts]
    if not any(t in FLAGS or _MARKED.match(t) for t in lowered):
        return False
    return all(t in _MARKS or _MARKED.match(t) for t in lowered)


_ORDINAL = re.compile(r"^(?:t-?|=)?\d{1,3}(?:st|nd|rd|th)\b", re.IGNORECASE)


def finishes(texts: Sequence[str]) -> bool:
    """Whether most values say where a contestant ended up: placings or ordinals ("9th",
    "Eliminated 8th", "2nd Runner-up", "Winner").

    >>> finishes(["9th", "Eliminated 8th", "Runner-up"]), finishes(["1890", "Active"])
    (True, False)
    """
    hits = sum(bool(_ORDINAL.match(t.strip()) or _PLACING.search(t)) for t in texts)
    return bool(texts) and 5 * hits >= 4 * len(texts)


def all_years(texts: Sequence[str]) -> bool:
    """Whether every text is a year ("1947", "c. 1820" is not: a person says "the date")."""
    return bool(texts) and all(YEAR.fullmatch(t.strip()) for t in texts)


def dates_in(kinds: set[str], texts: Sequence[str]) -> bool:
    """Whether a column holds dates or years (typed, or a year in most of its texts)."""
    if kinds & {"year", "date"} or not texts:
        return bool(kinds & {"year", "date"})
    return 2 * sum(bool(re.search(r"\b(?:1[5-9]|20)\d\d\b", t)) for t in texts) > len(texts)


def lifespans(texts: Sequence[str], living: bool = False) -> bool:
    """Whether most values are spans of years as long as lives ("1901–1966": 35 years or more,
    where a term of office or a career is shorter); with `living` (the header says lives:
    "Life"), the spans of the living ("1951-") count as spans too.

    >>> lifespans(["1901–1966", "1887–1950", "1920–"]), lifespans(["1990–1995", "2001–2004"])
    (True, False)
    >>> lifespans(["1916-2002", "1951-", "1967-"]), lifespans(["1916-2002", "1951-", "1967-"], True)
    (False, True)
    """
    spans = [m for m in (YEAR_SPAN.match(t.strip()) for t in texts) if m]
    long = [m for m in spans if int(m.group(2)) - int(m.group(1)) >= 35]
    opened = sum(bool(_OPEN_SPAN.match(t.strip())) for t in texts) if living else 0
    shown = len(spans) + opened
    return bool(texts) and 2 * shown > len(texts) and 2 * len(long) > len(spans)


_OPEN_SPAN = re.compile(r"^\(?(?:1[0-9]|20)\d\d\s*[–—-]\s*(?:present)?\)?$", re.IGNORECASE)


def births(texts: Sequence[str]) -> bool:
    """Whether most values are open spans, a year and a dash ("1973-"): a living person's
    lifespan, which says the year they were born.

    >>> births(["1973-", "1977-", "1971-"]), births(["1990-1995", "2001-"])
    (True, False)
    """
    return bool(texts) and 2 * sum(bool(_OPEN_SPAN.match(t.strip())) for t in texts) > len(texts)


FLAGS = frozenset(["yes", "no", "y", "n", "✓", "✔", "✗", "x"])


# what else a column of yes/no marks holds: how a broadcaster shows it ("Finals: Yes / Live")
_MARKS = FLAGS | {"live", "delayed", "highlights", "partial", "n/a", "-", "–", "—"}


_MARKED = re.compile(r"(?:yes|no)\s*(?:[(/,;–—-]|$)")  # "Yes (delayed)", not "No. 5"


_CODE = r"(?:[A-Z]{1,4}|(?:[A-Za-z]{1,3}\.)+[A-Za-z]{0,3})"


_CODES = re.compile(rf"{_CODE}(?:\s+{_CODE})*")


_EPISODES = re.compile(
    r"\d{1,3}(?:\s*[–—-]\s*\d{1,3})?(?:\s*[,;&]\s*\d{1,3}(?:\s*[–—-]\s*\d{1,3})?)*"
)


def episode_numbers(texts: Sequence[str]) -> bool:
    """Whether most values are episode numbers or ranges ("1–22", "3, 5, 9"), not names.

    >>> episode_numbers(["1–22", "3, 5, 9", "14"]), episode_numbers(["Tom Hanks", "12"])
    (True, False)
    """
    hits = sum(bool(_EPISODES.fullmatch(t.strip())) for t in texts)
    return bool(texts) and 5 * hits >= 4 * len(texts)


def code_list(text: str) -> bool:
    """Whether one value lists several codes ("AAB, FN, INS, LK"): no clue a question can give.

    >>> code_list("AAB, FN, INS, LK"), code_list("Notre Dame"), code_list("QB")
    (True, False, False)
    """
    parts = [p.strip() for p in text.split(",")]
    return len(parts) >= 2 and all(_CODES.fullmatch(p) for p in parts)


def code_lists(texts: Sequence[str]) -> bool:
    """Whether most values list several codes ("AAB, AP, CO, FN", "CP, SS"): marks of who said
    so, which a question cannot explain (single codes, "QB", "1B", stay: a position's own name).

    >>> code_lists(["AAB, AP, CO", "CP", "UP", "SS"]), code_lists(["QB", "RB", "WR"])
    (True, False)
    """
    said = [t.strip() for t in texts if t.strip()]
    lists = [t for t in said if code_list(t)]
    codes = [t for t in said if _CODES.fullmatch(t) or t in lists]
    return len(said) >= 3 and 4 * len(lists) >= len(said) and 5 * len(codes) >= 4 * len(said)


# what a year says happened then: "1735 (completed)", "1910 built 1997 NRHP-listed"
_EVENT_NOTE = re.compile(r"\d{3,4}\s*(?:\([^()]*[a-z]{3}[^()]*\)|[a-z]{3,})")


def annotated(texts: Sequence[str]) -> bool:
    """Whether most values are not plain dates: a year with what happened then ("1735
    (completed)", "1541 (established)"), so "the date" would not say which event it dates.

    >>> annotated(["1735 (completed)", "1893 (first phase completed)"]), annotated(["May 6, 1910"])
    (True, False)
    >>> annotated(["January 8", "2005-03-12", "c. 1820", "1998–99"])
    False
    """
    said = [t.strip() for t in texts if t.strip()]
    return bool(said) and 2 * sum(bool(_EVENT_NOTE.search(t)) for t in said) > len(said)


def codes(texts: Sequence[str]) -> bool:
    """Whether most values are codes ("N.P.P", "T.M.C", "CR", "NR CR WL"): a generic header
    over them ("Type") asks for abbreviations the question cannot explain.

    >>> codes(["N.P", "T.M.C", "M", "N.P.P"]), codes(["Town", "City", "Village"])
    (True, False)
    >>> codes(["2", "1", "7", "2"])  # "Type: 2": a category's number, unexplained
    True
    """
    said = [t.strip() for t in texts if t.strip()]
    coded = sum(bool(_CODES.fullmatch(t) or re.fullmatch(r"\d{1,2}", t)) for t in said)
    return len(said) >= 3 and 5 * coded >= 4 * len(said)


_DEGREE = re.compile(r"[A-Z][a-z]{0,2}\.?(?: \d{4})?")


def degree_codes(texts: Sequence[str]) -> bool:
    """Whether most values are a short code, half of them with a year ("B 1772", "Att 1942",
    "F" of a university's alumni: a degree and class, an attendance, a faculty post), which a
    question cannot explain.

    >>> degree_codes(["B 1772", "Att", "B 1965", "F", "Att 1942"]), degree_codes(["Won", "Lost"])
    (True, False)
    """
    said = [t.strip() for t in texts if t.strip()]
    coded = sum(bool(_DEGREE.fullmatch(t)) for t in said)
    dated = sum(bool(_DEGREE.fullmatch(t)) and " " in t for t in said)
    return len(said) >= 3 and 5 * coded >= 4 * len(said) and 2 * dated >= len(said)


def sequence(texts: list[str]) -> bool:
    """Whether the values number the rows 1, 2, 3, ... (a match number, not a count)."""
    numbers = [t.strip() for t in texts]
    return numbers == [str(i) for i in range(1, len(numbers) + 1)] and len(numbers) > 2


# words of a rank, office or honour a person holds ("Duke of Norfolk", "WBA champion")
_HONOURS = re.compile(
    r"\b(?:of|duke|duchess|earl|count|countess|baron|baroness|lord|lady|sir|dame|king|queen|"
    r"prince|princess|emperor|empress|sultan|khan|emir|bishop|archbishop|cardinal|pope|"
    r"president|minister|governor|champion|master|professor|doctor|chief|marquess|viscount)\b",
    re.IGNORECASE,
)


def honorifics(texts: Sequence[str]) -> bool:
    """Whether most of a "Title" column's values are ranks or honours a person holds ("Duke
    of Norfolk"), not the titles of works beside them ("Against the Grain").

    >>> honorifics(["Duke of Norfolk", "Earl of Derby"]), honorifics(["Zulu", "Party Animals"])
    (True, False)
    """
    return 2 * sum(bool(_HONOURS.search(t)) for t in texts) > len(texts)
