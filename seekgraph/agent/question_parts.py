"""The parts a reader takes out of a question: the tables it names and, for a
Knowledge-Projection question, its clauses and their terms (`seekgraph.agent.questions` reads
every task kind, `seekgraph.agent.kp_reading` the KP sentences)."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class TableName:
    """A table as the question names it: `columns` are the column labels a question names a
    table without a section by (the first of them for a wide table), `first_row` the text its
    first row starts with, when the question says it."""

    title: str
    section: str = ""
    columns: tuple[str, ...] = ()
    first_row: str = ""

    @property
    def query(self) -> str:
        """What to type into the search box to find it."""
        return f"{self.title} {self.section}".strip()


def column_names(text: str | None) -> tuple[str, ...]:
    """The labels of a question's "table with columns Rank, Country and Time".

    >>> column_names("Rank, Country and Time")
    ('Rank', 'Country', 'Time')
    """
    return tuple(p.strip() for p in re.split(r", | and ", text or "") if p.strip())


@dataclass(frozen=True)
class Term:
    """A KP clause's term: a constant ("Sofia") or an unknown (``answer``, ``A``)."""

    text: str
    unknown: bool


@dataclass(frozen=True)
class Clause:
    """One KP clause. ``row``: in `table`, a row whose entity is `key` has `relation` in
    `cells`; ``link``: the article on `key` links to the article on one of `cells`."""

    kind: str  # row | link
    key: tuple[Term, ...]
    relation: str
    cells: tuple[Term, ...]
    table: TableName | None = None
    text: str = ""
