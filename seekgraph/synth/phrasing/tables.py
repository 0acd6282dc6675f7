"""How a question names a source table: its title and section in quotes, a cut table by its
first rows, a selection marked as one.

A question must let a reader find the very table its answer comes from, so the name is exact
(the title as the page spells it, the section when it tells tables apart) and says when the
table is not the full list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from seekgraph.synth.phrasing.words import join

# sections that tell no table apart: "Key" and "Legend" head the notes on a table's symbols
GENERIC_SECTIONS = frozenset(
    ["", "main", "list", "table", "overview", "results", "summary", "key", "legend"]
)


@dataclass(frozen=True)
class TableRef:
    """A source table as a question names it. `first_rows` is set when the source cut the
    table at that many rows (a question then asks for its first rows, which is exact), and
    `selection` when the table is a selection (a "Notable ..." section): a question over
    several tables marks each such table, so none reads as the full list.

    >>> TableRef("2004 NFL Draft", "Round 1", 20).quoted()
    '"2004 NFL Draft" (section "Round 1", first 20 rows)'
    >>> TableRef("2004 NFL Draft", "Round 1", 20).where()
    'the first 20 rows of the Wikipedia table "2004 NFL Draft" (section "Round 1")'
    >>> TableRef("1948 NFL Draft", "Notable undrafted players", selection=True).quoted()
    '"1948 NFL Draft" (section "Notable undrafted players", a selection)'

    A table without a section is told from the article's other tables by its columns:

    >>> TableRef("Half Marathon", columns=("Rank", "Country", "Team", "Time ( h:m:s )")).quoted()
    '"Half Marathon" (table with columns Rank, Country, Team and Time)'

    and, when its first row is known, by that too: a list article holds many tables of the
    same columns (one per country, per decade), and only their rows tell them apart:

    >>> TableRef("Venues", columns=("Name", "Town"), first_row="ABB Arena (Västerås)").quoted()
    '"Venues" (table with columns Name and Town, starting with "ABB Arena")'
    """

    title: str
    section: str = ""
    first_rows: int = 0
    selection: bool = False
    columns: tuple[str, ...] = ()
    first_row: str = ""

    def quoted(self, marks: bool = True) -> str:
        """The title and section in quotes, with the row cap and selection marks unless
        `marks` is false (`where` says them in prose instead)."""
        title, section = _plain_quotes(self.title), _plain_quotes(self.section.strip())
        parts = []
        if section.lower() not in GENERIC_SECTIONS and not _said_in(section, title):
            parts.append(f'section "{section}"')
        elif section.lower() in GENERIC_SECTIONS and columns_phrase(self.columns):
            parts.append(columns_phrase(self.columns))  # no section tells it from the others
            # its name without the asides ("Aberdeen (Scots: Aiberdeen)" starts with Aberdeen)
            first = " ".join(re.sub(r"\([^()]*\)", " ", self.first_row).split())
            first = first or self.first_row.strip()
            if first:
                parts.append(f'starting with "{_plain_quotes(first)}"')
        if marks and self.first_rows:
            parts.append(f"first {self.first_rows} rows")
        if marks and self.selection:
            parts.append("a selection")
        return f'"{title}"' + (f" ({', '.join(parts)})" if parts else "")

    def where(self) -> str:
        """The table in a sentence: 'the Wikipedia table "X"', or its first rows."""
        table = f"the Wikipedia table {self.quoted(marks=False)}"
        return f"the first {self.first_rows} rows of {table}" if self.first_rows else table


MAX_COLUMNS = 6


def column_label(header: str) -> str:
    """A column header as a question names it among others: no brackets, quotes, symbols or
    tokeniser spaces; a comma between two names becomes a slash ("Name, Part" names one column),
    and "#" the number.

    >>> column_label('Area km² ( sq mi )'), column_label('Notes, "sources"')
    ('Area km²', 'Notes/sources')
    >>> column_label("No . of Appearances"), column_label("Diameter ⌀"), column_label("#")
    ('No. of Appearances', 'Diameter', 'No.')
    """
    text = re.sub(r"\([^()]*\)|\[[^\[\]]*\]|[\"()\[\]]", " ", header)
    text = re.sub(r"[^\w\s.,/&'%#?²³°+-]", " ", text)
    text = re.sub(r"(?<=\w) (?=[.])", "", " ".join(text.split()))
    text = re.sub(r"\s*,\s*", "/", text).strip("/ ")
    return "No." if text == "#" else text


def columns_phrase(columns: tuple[str, ...]) -> str:
    """'table with columns A, B and C' (labels without brackets, quotes or commas; the first five
    of a wider table), or '' when no label is left: how a person points at one of an article's
    tables that has no section of its own.

    >>> columns_phrase(("Year", "Winner ( s )", "Notes, sources", "", "1", "2", "3", "4"))
    'table whose first columns are Year, Winner, Notes/sources, 1 and 2'
    """
    labels = [label for label in map(column_label, columns) if label]
    if not labels:
        return ""
    if len(labels) > MAX_COLUMNS:
        return f"table whose first columns are {join(labels[: MAX_COLUMNS - 1])}"
    return f"table with columns {join(labels)}"


def _said_in(section: str, title: str) -> bool:
    """Whether the title already says the section, as whole words ("B" is not in "by"), and
    says nothing beside it: "Films" of "List of conspiracy-thriller films and television
    series" is one of two lists the title names, so it stays.

    >>> _said_in("B", "List of towns in India by population"), _said_in("Results", "Results")
    (False, True)
    >>> _said_in("Films", "List of conspiracy-thriller films and television series")
    False
    """
    lowered = title.lower()
    if re.search(r"\b(?:and|&)\b", lowered) and not re.search(r"\b(?:and|&)\b", section.lower()):
        return False  # the title names several lists; the section says which
    return re.search(rf"(?<!\w){re.escape(section.lower())}(?!\w)", lowered) is not None


def _plain_quotes(text: str) -> str:
    """Tokenised quotes (``dinar '') and inner double quotes as single quotes, so a quoted
    title stays one quoted string; the spaces a tokeniser put inside brackets and before
    punctuation go, as the page spells it.

    >>> _plain_quotes("Junior Men 's ( 4.35 mi / 7.0 km )"), _plain_quotes("Deanery 18 ( A , B )")
    ("Junior Men's (4.35 mi / 7.0 km)", 'Deanery 18 (A, B)')
    >>> _plain_quotes("Women [ 3 ]")
    'Women'

    """
    text = re.sub(r"``\s*", "'", text)
    text = re.sub(r"\s*''", "'", text)
    text = re.sub(r"\s+'s(?!\w)", "'s", text)
    text = re.sub(r"(?<=s)\s+'(?!\w)", "'", text)  # a plural's possessive: "players '"
    text = re.sub(r"\s+([,.;:!?)\]])", r"\1", text)
    text = re.sub(r"([(\[])\s+", r"\1", text)
    text = re.sub(r"\s*\[\d{1,3}\]", "", text)  # a footnote mark: "Women [3]"
    return text.replace('"', "'")
