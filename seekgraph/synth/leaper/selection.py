"""Is a table the whole list, or a selection of it? "Which X are listed" is complete only then.

A table is read as a *selection* when a person would not take it for the full list:

- ``selection_words``: its section or caption says so ("Notable alumni", "Selected works",
  "Top scorers", "Other people", "Some examples") or its title or section says "(partial)";
- ``others_row``: one of its rows stands for the rest ("and others", "Others", "etc.");
- ``unnamed_rows``: ingest dropped rows of it whose key cell it could not read as a name (a
  painting's title of seventeen words read as prose, ``prose_key``): the rows are entries of
  the list, so no gold can be its full list, nor its first rows;
- ``row_cap``: it has exactly as many rows as its source keeps (OTT-QA cuts every table at
  20 rows): the question then asks for its first rows (`first_rows`), which is exact.

A Basic question over a selection says so (`seekgraph.synth.leaper.questions.basic_question`);
the quality gate (``partial_table``) rejects any WebLeaper task over one whose question does
not (and every task over a table with unnamed rows: no question can say what is missing).
O(1) per table besides its key texts.

>>> selection_of("List of alumni of X", "Notable alumni", 12, "ottqa", [])
'selection_words'
>>> selection_of("X", "People -- Other people", 9, "ottqa", [])
'selection_words'
>>> selection_of("X", "Countries bordering only one other country", 17, "ottqa", [])
''
>>> selection_of("2004 NFL Draft", "Round 1", 20, "ottqa", []), first_rows(20, "ottqa")
('row_cap', 20)
>>> selection_of("Booker Prize", "Winners", 12, "ottqa", ["Ian McEwan", "and others"])
'others_row'
>>> selection_of("List of works by Terence Cuneo", "Ceremonial paintings", 15, "ottqa", [], 7)
'unnamed_rows'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

# why ingest drops a row that is an entry of the list, not a summary or an empty row: its key
# cell reads as prose (`seekgraph.synth.ingest.key_cells.key_rejection`)
UNNAMED_ROW_REASONS = frozenset(["prose_key"])
# the most rows a source keeps of a table: a table of exactly that many was (likely) cut
ROW_CAPS = {"ottqa": 20}
_SELECTION_WORDS = re.compile(
    r"\b(?:notable|selected|selection|top|partial|incomplete|famous|prominent|examples?|"
    r"highlights)\b"
    # "Other people", "Some examples" head a part of the section; "Countries bordering only
    # one other country" lists them all
    r"|(?:^|--|:)\s*(?:other|others|some)\b",
    re.IGNORECASE,
)
# a title announcing how many things its list holds ("100 Best Novels", "Top 10 Vote Results")
_ANNOUNCED = re.compile(
    r"\b(\d{2,4})\s+(?:best|greatest|finest)\b|\btop\s+(\d{2,4})\b", re.IGNORECASE
)
_OTHERS_ROW = re.compile(
    r"^\W*(?:and\s+)?(?:(?:many|several|various)\s+)?(?:others?|etc|more|various)\W*$",
    re.IGNORECASE,
)


def first_rows(
    n_rows: int | None, source: str | None, title: str | None = "", section: str | None = ""
) -> int:
    """The row count to name in the question when the table stops at its source's cap, or
    holds fewer rows than its title announces ("Modern Library 100 Best Novels" of 10 rows),
    else 0.

    >>> first_rows(10, "ottqa", "Modern Library 100 Best Novels", "Editors' list")
    10
    >>> first_rows(10, "ottqa", "FIBA's 50 Greatest Players (1991)", "Top 10 Vote Results")
    0
    >>> first_rows(19, "ottqa", "List of Dutch Top 40 number-one singles of 2007", "Artists")
    0
    """
    cap = ROW_CAPS.get(source or "")
    if cap and n_rows == cap:
        return cap
    if not n_rows:
        return 0
    announced = list(_ANNOUNCED.finditer(f"{title or ''} / {section or ''}"))
    # the last count named is the table's own ("50 Greatest Players / Top 10 Vote Results");
    # "Top 40" may name a chart, and a "Top 10" table is a selection anyway (`selection_of`)
    last = announced[-1] if announced else None
    return n_rows if last and last.group(1) and int(last.group(1)) > n_rows else 0


def selection_of(
    title: str | None,
    section: str | None,
    n_rows: int | None,
    source: str | None,
    key_texts: Iterable[str],
    unnamed: int = 0,
) -> str:
    """Why a table is a selection (a reason code of the module doc), or '' for a full list.
    `key_texts`: the texts of its key cells, the rows ingest dropped included; `unnamed`: how
    many rows ingest dropped as entries it could not name (`UNNAMED_ROW_REASONS`)."""
    if _SELECTION_WORDS.search(section or "") or re.search(
        r"\(\s*partial", f"{title or ''} {section or ''}", re.IGNORECASE
    ):
        return "selection_words"
    if any(_OTHERS_ROW.match(text or "") for text in key_texts):
        return "others_row"
    if unnamed:
        return "unnamed_rows"
    if first_rows(n_rows, source, title, section):
        return "row_cap"
    return ""


def table_selection(table: Mapping[str, Any], names: Iterable[str]) -> str:
    """`selection_of` for a table as ``leaper/find_tree_sources`` and
    ``quality/find_table_selections`` read it (title, section, size, source, the details and
    reasons of the rows ingest dropped), `names` the names of its kept rows' entities.

    >>> table_selection({"title": "List of works by Terence Cuneo", "section_title": "Works",
    ...     "n_rows": 15, "source": "ottqa", "dropped": ["key cell 'Visit of HRH ...'"],
    ...     "dropped_reasons": ["prose_key"]}, ["The Coronation of Queen Elizabeth II"])
    'unnamed_rows'
    """
    keys = [*names, *dropped_key_texts(table["dropped"] or [])]
    return selection_of(
        table["title"],
        table["section_title"],
        table["n_rows"],
        table["source"],
        keys,
        unnamed_rows(table["dropped_reasons"] or []),
    )


def unnamed_rows(reasons: Iterable[str | None]) -> int:
    """How many of the rows ingest dropped (their rejections' reasons) were entries it could
    not name.

    >>> unnamed_rows(["prose_key", "summary_row", "prose_key", "blank_key"])
    2
    """
    return sum(1 for r in reasons if r in UNNAMED_ROW_REASONS)


def dropped_key_texts(details: list[str]) -> list[str]:
    """The key texts of rows ingest dropped, from their rejections' details ("key cell 'Others'").

    >>> dropped_key_texts(["key cell 'Others'", "key cell 'Total'"])
    ['Others', 'Total']
    """
    texts = []
    for detail in details:
        match = re.match(r"key cell (['\"])(.*)\1$", detail or "")
        if match:
            texts.append(match.group(2))
    return texts
