"""Choosing a table's key (anchor) column: a documented score, and an optional LLM decision.

The key column is the one whose cells are the entities the table is about (the laureates of a
prize table, the films of a filmography). For column ``j`` of a table with ``n`` columns:

    score = 0.30 * link_ratio        share of non-empty cells that link to a page
          + 0.25 * uniqueness        distinct non-empty texts / non-empty cells
          + 0.20 * position          1 - j / n (key columns sit on the left)
          + 0.25 * header            +1 for entity words (name, player, film, ...),
                                     -1 for attribute words (year, date, rank, notes, ...), else 0
          + 0.25 * context           +1 when the header names what the table's section or title
                                     lists ("Team" under "Teams -- Personnel and kits"), else 0
          - 0.30 * literal_share     share of cells that are years, dates, numbers, or records
                                     and scores ("12–4", "W 3–1", "2–1 (a.e.t.)")
          - 0.20 * empty_share       share of empty cells

A column is *usable* when its link ratio reaches ``min_link_ratio`` (waived when the whole table
has no links, as in plain CSV, and for a distinct column with an entity header or one the section
names) and its uniqueness reaches ``min_uniqueness``; the best usable column wins if its score
reaches ``min_score``. Rules about what the columns are override the score:

- an *affiliation* (a team, club, college, country or suburb column, or a relation such as "To
  club" or "River crossed") is not the key when a distinct column names the people or things the
  rows are about ("Player" in a draft, "Name" in a list of schools by suburb; any distinct entity
  column over a place, and a "Team" or "Club" column left of its home town), unless the section
  names the affiliation ("Clubs");
- a distinct column headed "Name" left of the best column is the key (a medal table's event);
- a column whose header says a row may hold several ("State(s)") is not the key when a distinct
  column without it is usable;
- a column whose cells list several linked things in most rows (a relay team's runners) names
  a group: a distinct column of one linked thing per row, left of it or an affiliation (the
  team's country), is the key;
- a table of matches (a "Score" or "Result" column of scores beside two columns of who played:
  winner, opponent, runner-up, MVP, ...) has no key unless its section names the column;
- a best column headed "Opponent" or "Rival" has no key unless its section names it: the rows
  are one side's games or its record against each opponent, and their values (a score, "Rec",
  a date) are the games', not the opponents'.
- a best column of the makers works are credited to ("Director", "Author") gives way to a
  distinct column of titles left of it ("Main title"): the rows are the works (a prize's
  "Year | Author | Title" lists its winning authors);
- a best column of offices named by their seats ("Bishop of Frascati", "Earl of Derby") gives
  way to a distinct column of people (the "Elector" who held each); a list of the titles
  themselves, with no such column, keeps them.

The context is the section and, for a "List of X ..." title, X. Runs in O(rows × columns).

What a header says is read in `seekgraph.synth.key_headers`; each column's features and score
are computed in `seekgraph.synth.key_score`; this module holds the rules that choose over them.

Accuracy against 110 hand-labelled OTT-QA tables (``tests/data/key_columns.jsonl``) is checked
by ``tests/test_keycolumn.py``.

>>> from seekgraph.synth.ingest.records import Cell
>>> rows = [[Cell("1982"), Cell("Gabriel García Márquez", ("/wiki/G",))],
...         [Cell("1983"), Cell("William Golding", ("/wiki/W",))]]
>>> choose_key_column(["Year", "Laureate"], rows).index
1
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from seekgraph.synth.ingest.cell_lists import holds_several, names_group
from seekgraph.synth.ingest.records import Cell
from seekgraph.synth.key_headers import (
    PLACE_AFFILIATION,
    PLACE_WORDS,
    WORD_PATTERN,
    WORK_WORDS,
    head_noun,
    is_affiliation,
    names_own_things,
    parallel_to,
    word_set,
)
from seekgraph.synth.key_score import ColumnStats, column_stats
from seekgraph.synth.noun_classes import noun_classes

if TYPE_CHECKING:
    from seekgraph.common.llm.base import LLMBackend

# how close a rival's score may be for the column the section names to win over it
CLOSE = 0.1


_SCORE_HEADERS = frozenset(["score", "scores", "result", "results", "final"])
# who took part in a game: two of these beside a score column make the rows games
_SIDES = frozenset(
    [
        "winner",
        "winners",
        "champion",
        "champions",
        "runner-up",
        "runners-up",
        "runner",
        "opponent",
        "opponents",
        "rival",
        "loser",
        "losers",
        "home",
        "away",
        "finalist",
        "mvp",
    ]
)


# the other side of a game: a column of them lists whom one side played, not things the rows are
_AGAINST = frozenset(["opponent", "opponents", "opposition", "rival", "rivals", "versus", "vs"])


_SCORE = re.compile(r"^[\(\[]?(?:[wldt]\s+)?\d{1,3}\s*[-–—]\s*\d{1,3}\b")


def _is_score(header: str, cells: Sequence[Cell]) -> bool:
    """A column of match scores ("Score: 79-69", "Result: W 3–1"); race times and marks
    ("Result: 8.95 m") are not scores."""
    words = WORD_PATTERN.findall(header.lower())
    texts = [c.text.strip().lower() for c in cells if c.text.strip()]
    if not words or words[-1] not in _SCORE_HEADERS or not texts:
        return False
    return 5 * sum(bool(_SCORE.match(t)) for t in texts) >= 3 * len(texts)


_TITLE_HEADS = [[w] for w in sorted(WORK_WORDS | {"name", "names", "titles"})]


def _is_name(header: str) -> bool:
    return WORD_PATTERN.findall(header.lower()) in (["name"], ["names"], ["name", "s"])


def choose_key_column(
    header: Sequence[str],
    rows: Sequence[Sequence[Cell]],
    *,
    min_score: float = 0.45,
    min_link_ratio: float = 0.5,
    min_uniqueness: float = 0.6,
    context: str = "",
) -> ColumnStats | None:
    """The best usable column by score, or None when no column is usable (see module doc)."""
    stats = column_stats(header, rows, context)
    any_links = any(c.links for row in rows for c in row)
    usable = [
        s
        for s in stats
        if (
            s.link_ratio >= min_link_ratio
            or not any_links
            or ((s.header_signal > 0 or s.context > 0) and s.uniqueness >= 0.8)
        )
        and s.uniqueness >= min_uniqueness
        and s.literal_share < 0.5
        # a highway's "From" and "To" are where the row's thing runs, never the thing
        and WORD_PATTERN.findall(s.header.lower()) not in (["from"], ["to"], ["via"])
    ]
    if not usable:
        return None
    named = [s for s in usable if s.context > 0]
    # the one column the section or title says the table lists wins over a close rival (a
    # "Teams" table keyed by its team column, not by its better-linked head coaches)
    best = max(usable, key=lambda s: (s.score, -s.index))
    if best.context == 0 and is_affiliation(best.header):
        # a team, club, college, country or suburb column is where the row's thing is: a
        # distinct column of the things themselves ("Player" in a draft, "Name" in a list of
        # schools by suburb) is the key, however better linked the affiliation is
        place = head_noun(best.header) in PLACE_AFFILIATION
        own = [
            s
            for s in usable
            if s.header_signal > 0
            and s.uniqueness >= 0.8
            and not holds_several(s.header)  # "First driver(s)": several to a row, not the row
            and (
                names_own_things(s.header)
                or (place and not is_affiliation(s.header))
                # "Team" beside its "Home town/suburb": a list of clubs by where they play
                or (place and head_noun(s.header) in _SIDES_OF_A_PLACE and s.index < best.index)
            )
        ]
        if own:
            best = max(own, key=lambda s: (s.score, -s.index))
    medallists = [
        s for s in stats if _is_name(s.header) and s.link_ratio >= 0.8 and s.literal_share < 0.5
    ]
    medals = any("medal" in WORD_PATTERN.findall(h.lower()) for h in header)
    if best.context == 0 and best.link_ratio < 0.5 and medals and medallists:
        # Medal | Name | Sport | Event: the rows are medals won by the named (who repeat, one
        # row a medal), not the unlinked events ("Men's 500 m"); each name keeps its rows
        best = medallists[0]
    names = [s for s in usable if _is_name(s.header) and s.uniqueness >= 0.8]
    if best.context == 0 and names and names[0].index < best.index:
        # a "Name" column left of the best one is what a medal or roster table lists; its
        # event, sport or club columns say what the named won or where they play
        best = names[0]
    titled = [
        s
        for s in usable
        if s.uniqueness >= 0.95 and WORD_PATTERN.findall(s.header.lower())[-1:] in _TITLE_HEADS
    ]
    if best.context == 0 and best.uniqueness < 0.8 and titled:
        # the best column repeats ("Leader" of a sideman's records, one leader to several
        # rows) beside a distinct "Title": the rows are the titled things, not the leaders
        best = titled[0]
    credited = [s for s in titled if s.index < best.index]  # the titles first, then who made them
    winner = bool(set(WORD_PATTERN.findall(best.header.lower())) & _HONOURED)
    if best.context == 0 and head_noun(best.header) in _CREDITS and credited and not winner:
        # "Director" beside "Main title": the rows are the works, each credited to its maker
        best = credited[0]
    made = [
        s
        for s in usable
        if s.index < best.index
        and s.link_ratio >= 0.8
        and s.uniqueness >= 0.95
        and s.header_signal >= 0
    ]
    maker = head_noun(re.sub(r"\([^()]*\)", " ", best.header)) in _MAKERS  # not its "( Model )"
    if best.context == 0 and maker and made and not winner:
        # "Coaster" left of "Manufacturer ( Model )": the rows are the coasters, each with its
        # maker; a distinct, linked column of the things made is the key
        best = made[0]
    if len(named) == 1 and named[0].score >= best.score - CLOSE:
        best = named[0]
    if best.context == 0 and holds_several(best.header):
        # "State(s)": a row may have several, so they are not what the row is
        single = [s for s in usable if not holds_several(s.header) and s.uniqueness >= 0.8]
        if single:
            best = max(single, key=lambda s: (s.score, -s.index))
    if best.score < min_score and any_links:
        return None
    columns = [[row[j] if j < len(row) else Cell("") for row in rows] for j in range(len(header))]
    sides = sum(bool(set(re.findall(r"[a-z]+(?:-[a-z]+)?", h.lower())) & _SIDES) for h in header)
    if (
        best.context == 0
        and sides >= 2
        and any(_is_score(h, c) for h, c in zip(header, columns, strict=True))
    ):
        return None  # Year | Winner | Score | Opponent | MVP: the rows are games
    if best.context == 0 and parallel_to(best.header, [h for h in header if h != best.header]):
        return None  # a year-by-division grid of winners: no column is what the rows are
    where = head_noun(best.header)
    if best.context == 0 and where in _AGAINST:
        return None  # Opponent | GP | Rec | %: a team's record against each, not the opponents
    if best.context == 0 and (
        where in _WHERE or (where in PLACE_WORDS | PLACE_AFFILIATION and best.uniqueness < 1)
    ):
        return None  # "Location" of statues, "City" of car bombings: the rows happen there
    cells = [c.text for c in columns[best.index] if c.text.strip()]
    if best.context == 0 and 5 * sum(bool(_EDITION.match(t)) for t in cells) >= 4 * len(cells):
        return None  # "1988 Calgary", "1997 Oeiras": results by edition, no thing listed
    if 5 * sum(_described(t) for t in cells) >= 2 * len(cells):
        return None  # "Small car-free district at the center": descriptions, not names
    if best.context == 0 and _offices([c.text for c in columns[best.index]]):
        # "Bishop of Frascati", "Priest of S. Sabina" beside the cardinals who held them: the
        # rows are the holders, and the office is what each held
        holders = [
            s
            for s in usable
            if s.index != best.index
            and s.uniqueness >= 0.8
            and "person" in noun_classes(head_noun(s.header))  # "Elector", not "Notes"
        ]
        if holders:
            best = max(holders, key=lambda s: (s.score, -s.index))
    if _lists_groups(columns[best.index]):
        # "Shem Kororia Moses Tanui Kenneth Cheruiyot" beside "Kenya": the row is the team, and
        # its rank and time are the team's, not each runner's (a medal won by a team of a
        # "Name" column beside its event is each member's: no country to be the row there);
        # a column the section names ("Wards and civil parishes") gives way only to one left
        # of it ("Ward name": each row a ward, its parishes listed)
        single = [
            s
            for s in usable
            if (s.index < best.index or (best.context == 0 and is_affiliation(s.header)))
            and s.header_signal >= 0  # not a "Season" of results by edition
            and s.link_ratio >= 0.8
            and s.uniqueness == 1
            # one link a row, or two in a few ("Biddenham & Bromham": a ward named for two)
            and 5 * sum(len(c.links) > 1 for c in columns[s.index]) <= len(columns[s.index])
        ]
        if single:
            best = max(single, key=lambda s: (s.score, -s.index))
    return best


def _lists_groups(cells: Sequence[Cell]) -> bool:
    """Whether most linked cells of a column name a group of several things (a team's runners,
    linked or not: `names_group`)."""
    linked = [c for c in cells if c.links]
    several = sum(names_group(c.text, c.links) for c in linked)
    return bool(linked) and 2 * several > len(linked)


# the makers a work is credited to: a column of them beside a distinct column of titles is
# an attribute of the works the rows are
_CREDITS = word_set(
    "director directors producer producers author authors writer writers composer composers"
)
# makers of things a table lists by a name of their own ("Coaster | ... | Manufacturer")
_MAKERS = word_set(
    "manufacturer manufacturers builder builders designer designers architect architects "
    "developer developers"
)
# words that make a maker the one a table honours ("Winning author" of a prize's winners)
_HONOURED = word_set("winning winner winners recipient recipients laureate honoree")
# the sides a place column says where they play: a distinct column of them left of it is the key
_SIDES_OF_A_PLACE = word_set("team teams club clubs")
# an office named by its seat: "Bishop of Albano", "Deacon of S. Adriano", "Earl of Derby"
_OFFICE = re.compile(
    r"^(?:arch)?(?:bishop|priest|deacon|cardinal|abbot|abbess|prior|duke|duchess|earl|count|"
    r"countess|baron|baroness|marquess|viscount|lord|prince|princess|king|queen)\s+of\b",
    re.IGNORECASE,
)


def _offices(texts: Sequence[str]) -> bool:
    """Whether most cells of a column name offices by their seats ("Bishop of Frascati").

    >>> _offices(["Bishop of Frascati", "Priest of S. Sabina", "Deacon of S. Teodoro"])
    True
    >>> _offices(["The Bishop's Wife", "Lord of the Flies", "Heat"])
    False
    """
    filled = [t.strip() for t in texts if t.strip()]
    offices = sum(bool(_OFFICE.match(t)) for t in filled)
    return bool(filled) and 5 * offices >= 4 * len(filled)


# headers that say where a row is, not what kind of place it is
_WHERE = word_set("location locations place places address locale")
# a key cell naming an edition of an event by its year ("1988 Calgary details")
_EDITION = re.compile(r"^\s*(1[5-9]|20)\d\d(?:[–-]\d{2,4})?\s+[A-Z]")


def _described(text: str) -> bool:
    """A cell that describes rather than names: most of its words are lowercase ("car free
    area of university campus", "Small car-free district at the center")."""
    words = [w for w in re.findall(r"[^\W\d_][\w'’-]*", text) if w.lower() not in _FUNCTION]
    return len(words) >= 4 and 2 * sum(w[:1].islower() for w in words) > len(words)


_FUNCTION = word_set("of the a an and in at on for to by with de la le du des von van")


def llm_key_column(
    backend: LLMBackend,
    title: str,
    header: Sequence[str],
    rows: Sequence[Sequence[Cell]],
    candidates: Sequence[ColumnStats],
) -> int | None:
    """Ask an LLM which candidate column names the entities the table is about.

    Used only when a backend is configured; the answer must be one of the candidates' indexes,
    otherwise (or on an unusable reply) None is returned and the score's choice stands.
    """
    if not candidates:
        return None
    sample = "\n".join(" | ".join(c.text for c in row) for row in rows[:5])
    options = "\n".join(f"{s.index}: {s.header or '(blank)'}" for s in candidates)
    messages = [
        {
            "role": "system",
            "content": "You pick the key column of a Wikipedia table: the column "
            "whose cells are the entities the table lists. Answer with the column number only.",
        },
        {
            "role": "user",
            "content": f"Table: {title}\nHeader: {' | '.join(header)}\n"
            f"Rows:\n{sample}\n\nCandidate columns:\n{options}\n\nKey column number:",
        },
    ]
    reply = backend.generate(messages, max_tokens=8, temperature=0.0)
    match = re.search(r"\d+", reply.text)
    if match is None:
        return None
    index = int(match.group())
    return index if any(s.index == index for s in candidates) else None
