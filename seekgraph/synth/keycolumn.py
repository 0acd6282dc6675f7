"""Choosing a table's key (anchor) column: a documented score, and an optional LLM decision.

The key column is the one whose cells are the entities the table is about (the laureates of a
prize table, the films of a filmography). For column ``j`` of a table with ``n`` columns:

    score = 0.40 * link_ratio        share of non-empty cells that link to a page
          + 0.25 * uniqueness        distinct non-empty texts / non-empty cells
          + 0.10 * position          1 - j / n (key columns sit on the left)
          + 0.15 * header            +1 for entity words (name, player, film, ...),
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
  column over a place), unless the section names the affiliation ("Clubs");
- a distinct column headed "Name" left of the best column is the key (a medal table's event);
- a column whose header says a row may hold several ("State(s)") is not the key when a distinct
  column without it is usable;
- a column whose cells list several linked things in most rows (a relay team's runners) names
  a group: a distinct column of one linked thing per row, left of it or an affiliation (the
  team's country), is the key;
- a table of matches (a "Score" or "Result" column of scores beside two columns of who played:
  winner, opponent, runner-up, MVP, ...) has no key unless its section names the column.

The context is the section and, for a "List of X ..." title, X. Runs in O(rows × columns).

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
from dataclasses import dataclass
from typing import TYPE_CHECKING

from seekgraph.synth.ingest.cell_lists import holds_several, names_group
from seekgraph.synth.ingest.records import Cell
from seekgraph.synth.ingest.values import typed_value

if TYPE_CHECKING:
    from seekgraph.common.llm.base import LLMBackend

WEIGHTS = {
    "link": 0.30,
    "unique": 0.25,
    "position": 0.20,
    "header": 0.25,
    "literal": -0.30,
    "empty": -0.20,
    "context": 0.25,
}
# how close a rival's score may be for the column the section names to win over it
CLOSE = 0.1
# a win-loss record, a score or a result: "12–4", "3-1-2", "W 3–1", "(2–1)"
_RECORD = re.compile(r"^[\(\[]?(?:[wldt]\s+)?\d{1,3}\s*[-–—:]\s*\d{1,3}(?:\s*[-–—:]\s*\d{1,3})?\b")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


ENTITY_WORDS = _words("""
name names title player players team club film films artist song album station school
college laureate winner winners author writer book novel building church
person people member members athlete driver rider candidate company airport
village municipality constituency
episode series show program programme game character actor actress director horse ship
locomotive aircraft model product brand event tournament race competition stadium venue
park lake river mountain island bridge route road highway peak site museum monument
species structure community neighborhood suburb parish settlement work software system
drug site ride restaurant song single recording record pitcher swimmer district
poet musician singer band composer coach manager president governor mayor senator
representative chairman leader champion boxer wrestler gymnast skater cyclist
runner nominee recipient titleholder inmate
""")

# the head nouns of columns that say where or with whom a row's entity is (its team, club,
# college, country, suburb): the key only when the section names them ("Clubs"), never over a
# column of the row's own things ("Player", "Name") in a draft, roster or medal table
AFFILIATION_WORDS = _words("""
team teams club clubs college school university affiliation league conference party label
publisher constructor manufacturer network channel owner employer sponsor
""") | _words("""
country nation nationality state province suburb hometown municipality community town city
village location region county
""")
# the places among them: any distinct column of things beats them ("Site" over "Municipality"),
# where a club or college loses only to the people or names a row is about
PLACE_AFFILIATION = _words("""
country nation nationality state province suburb hometown municipality community town city
village location region county
""")

# the people a row is about: a column of them (or one headed "Name" or "Title") is the key of a
# draft, roster, award or medal table over the team, college or country they are listed with
PERSON_WORDS = _words("""
name names title titles player players athlete athletes driver drivers rider riders gymnast
swimmer skater cyclist runner boxer wrestler pitcher laureate winner winners recipient nominee
candidate member members person people inmate titleholder champion artist author
""")

# what a bare "Title" column names when the section or title lists these ("best-selling singles")
WORK_WORDS = _words("""
work film song single album book novel game episode show series play painting poem opera
recording programme program title
""")

# a header that starts with a preposition or ends with one of these says how the row relates to
# a thing ("To club", "Recruited from", "River crossed", "City served"): a relation, not the key
_RELATION_HEAD = _words("to from in into at by via for with against")
_RELATION_TAIL = _words("from to by served crossed represented attended won joined")

ATTRIBUTE_WORDS = _words("""
year years date dates no number rank pos position notes note remarks comments score scores
result results time age height weight capacity population area length elevation pick round
total points pts goals apps caps record ref refs reference references km mi ft m
votes percentage share season seasons opened built founded established elected term
""")

PLACE_WORDS = _words("""
location locations city cities town nationality state states province
region county place places venue home ground headquarters hq address locale university
""")

_WORD = re.compile(r"[a-z]+")


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


def header_signal(header: str) -> float:
    """+1 for entity-like header words, -1 for attribute-like ones, 0 otherwise."""
    words = _WORD.findall(header.lower())
    if not words:
        return -0.5  # an unnamed column is rarely the key
    if len(words) > 1 and (words[0] in _RELATION_HEAD or words[-1] in _RELATION_TAIL):
        return -0.5  # "To club", "River crossed": a relation of the row's entity
    if words[0] in ATTRIBUTE_WORDS or words[-1] in ATTRIBUTE_WORDS:
        return -1.0 if not any(w in ENTITY_WORDS for w in words) else 0.0
    if any(w in ENTITY_WORDS for w in words):
        return 1.0
    if any(w in PLACE_WORDS for w in words):
        return -0.5  # where a row's entity is, rarely what it is
    return 0.0


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


_ORDINAL = _words("""
1 2 3 4 5 6 7 8 9 10 one two three four five six seven eight nine ten first second third fourth
fifth i ii iii iv v gold silver bronze
""")


def parallel_to(header: str, others: Sequence[str]) -> bool:
    """Whether `header` is one of a series of columns that differ only by a number or an
    ordinal ("Division Three" beside "Division Two", "Couple 1" beside "Couple 2", "Gold" beside
    "Silver"): cells of one series are the same kind of thing in different slots of a row (the
    winners of each division in a year), so none of them is what the rows are.

    >>> parallel_to("Division Three", ["Year", "Division Two", "Division Four"])
    True
    >>> parallel_to("Player", ["Pick", "Team"])
    False
    """
    words = re.findall(r"[a-z]+|\d+", header.lower())
    for other in others:
        theirs = re.findall(r"[a-z]+|\d+", other.lower())
        if theirs == words or len(theirs) != len(words) or not words:
            continue
        diff = [(a, b) for a, b in zip(words, theirs, strict=True) if a != b]
        if len(diff) == 1 and diff[0][0] in _ORDINAL and diff[0][1] in _ORDINAL:
            return True
    return False


def head_noun(header: str) -> str:
    """The noun a header names its cells by: its last word, or the word a "name" or "title"
    qualifies ("Airport name", "Song Title", "Name of District").

    >>> head_noun("MLS team"), head_noun("Song Title"), head_noun("Name of District")
    ('team', 'song', 'district')
    """
    words = _WORD.findall(header.lower())
    if not words:
        return ""
    if len(words) > 2 and words[0] in ("name", "names", "title") and words[1] == "of":
        return words[2]
    if len(words) > 1 and words[-1] in ("name", "names", "title", "titles"):
        return words[-2]
    return words[-1]


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


_SCORE = re.compile(r"^[\(\[]?(?:[wldt]\s+)?\d{1,3}\s*[-–—]\s*\d{1,3}\b")


def _is_score(header: str, cells: Sequence[Cell]) -> bool:
    """A column of match scores ("Score: 79-69", "Result: W 3–1"); race times and marks
    ("Result: 8.95 m") are not scores."""
    words = _WORD.findall(header.lower())
    texts = [c.text.strip().lower() for c in cells if c.text.strip()]
    if not words or words[-1] not in _SCORE_HEADERS or not texts:
        return False
    return 5 * sum(bool(_SCORE.match(t)) for t in texts) >= 3 * len(texts)


_TITLE_HEADS = [[w] for w in sorted(WORK_WORDS | {"name", "names", "titles"})]


def _is_name(header: str) -> bool:
    return _WORD.findall(header.lower()) in (["name"], ["names"], ["name", "s"])


def names_own_things(header: str) -> bool:
    """Whether a header names the people or things a row is about: "Name", "Title", "Airport
    name", "Player", "2nd runner-up", never a relation ("To club") or an affiliation.

    >>> names_own_things("Name"), names_own_things("2nd runner-up"), names_own_things("Stadium")
    (True, True, False)
    """
    words = _WORD.findall(header.lower())
    if not words or is_affiliation(header):
        return False
    return (
        words[-1] in ("name", "names", "title", "titles")
        or words[0] == "name"
        or any(w in PERSON_WORDS for w in words)
    )


_NATION_WORDS = frozenset(["country", "nation", "nationality"])


def _kin(said: list[str], i: int) -> bool:
    """Whether the plural `said[i]` is joined by "and" to a plural of its own sort ("towns and
    cities", "cities and towns"): the table lists both, not one thing and what it gives about
    it ("Stadiums and locations")."""
    partners = [
        said[j]
        for j, at in ((i - 2, i - 1), (i + 2, i + 1))
        if 0 <= j < len(said) and said[at] == "and" and said[j].endswith("s")
    ]
    own = _singular(said[i])
    return any(
        {own, _singular(p)} <= PLACE_AFFILIATION or {own, _singular(p)} <= PERSON_WORDS
        for p in partners
    )


def context_signal(header: str, context: str) -> float:
    """1.0 when the header (one or two words) names by its head noun a thing whose plural the
    section lists ("Team" under "Teams -- Personnel and kits", "Airport name" under "List of
    airports in Nunavut"), else 0. Plurals joined by "and" ("Stadiums and locations") name what
    the table gives about its things, not the things.

    >>> context_signal("Team", "Teams -- Personnel and kits"), context_signal("Head coach", "Teams")
    (1.0, 0.0)
    >>> context_signal("Stadium", "Teams -- Stadiums and locations")
    0.0
    >>> context_signal("Country", "Drivers -- By nationality")
    1.0
    >>> context_signal("Combined Statistical Area", "Major combined statistical areas")
    1.0
    >>> context_signal("City", "List of towns and cities in Norway -- City status since 1996")
    1.0
    """
    words = _WORD.findall(header.lower())
    head = head_noun(header)
    said_text = " ".join(_WORD.findall(context.lower()))
    if len(words) >= 2 and re.search(rf"\b{' '.join(words)}(?:s|es)\b", said_text):
        return 1.0  # "Combined Statistical Area" under "Major combined statistical areas"
    if not words or len(words) > 3 or head in ATTRIBUTE_WORDS:
        return 0.0
    if len(words) == 3 and words[:2] != ["name", "of"]:
        return 0.0
    said = _WORD.findall(context.lower())
    for by in re.findall(r"\bby\s+(\w+)", context.lower()):
        # "Drivers -- By nationality": the rows are the countries, whatever else they list
        if _singular(head) == _singular(by) or (
            by in _NATION_WORDS and _singular(head) in _NATION_WORDS
        ):
            return 1.0
    listed = {
        _singular(w)
        for i, w in enumerate(said)
        if w.endswith("s")
        and ("and" not in said[max(i - 1, 0) : i] + said[i + 1 : i + 2] or _kin(said, i))
    }
    if head in ("title", "titles") and len(words) == 1:
        return 1.0 if listed & WORK_WORDS else 0.0  # "Title" under "best-selling singles"
    return 1.0 if _singular(head) in listed else 0.0


def is_affiliation(header: str) -> bool:
    """Whether a header names where or with whom a row's entity is: its team, club, college,
    country or suburb ("MLS team", "School/Club Team", "Hometown"), or a relation to a thing
    ("To club", "River crossed").

    >>> is_affiliation("MLS team"), is_affiliation("River crossed"), is_affiliation("Player")
    (True, True, False)
    """
    words = _WORD.findall(header.lower())
    if len(words) > 1 and (words[0] in _RELATION_HEAD or words[-1] in _RELATION_TAIL):
        return True
    return head_noun(header) in AFFILIATION_WORDS


# a quantity with its unit: "474.166 MHz", "12 km", "3.5 kg"
_MEASURE = re.compile(
    r"^[\d.,]+\s*(?:[kmg]?hz|[kmg]w|km|mi|m|ft|cm|mm|kg|lb|lbs|t|ha|acres?|%)(?:\s*\([^()]*\))?$",
    re.IGNORECASE,
)


def is_literal(text: str) -> bool:
    """A year, date, number, a quantity with its unit ("474.166 MHz"), or a record, score or
    result: never a thing a table lists.

    >>> is_literal("474.166 MHz"), is_literal("3–1"), is_literal("25 mm Hotchkiss anti-tank gun")
    (True, True, False)
    """
    low = text.strip().lower()
    return typed_value(text)[0] != "text" or bool(_RECORD.match(low) or _MEASURE.match(low))


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
            and (names_own_things(s.header) or (place and not is_affiliation(s.header)))
        ]
        if own:
            best = max(own, key=lambda s: (s.score, -s.index))
    names = [s for s in usable if _is_name(s.header) and s.uniqueness >= 0.8]
    if best.context == 0 and names and names[0].index < best.index:
        # a "Name" column left of the best one is what a medal or roster table lists; its
        # event, sport or club columns say what the named won or where they play
        best = names[0]
    titled = [
        s
        for s in usable
        if s.uniqueness >= 0.95 and _WORD.findall(s.header.lower())[-1:] in _TITLE_HEADS
    ]
    if best.context == 0 and best.uniqueness < 0.8 and titled:
        # the best column repeats ("Leader" of a sideman's records, one leader to several
        # rows) beside a distinct "Title": the rows are the titled things, not the leaders
        best = titled[0]
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
    if best.context == 0 and (
        where in _WHERE or (where in PLACE_WORDS | PLACE_AFFILIATION and best.uniqueness < 1)
    ):
        return None  # "Location" of statues, "City" of car bombings: the rows happen there
    cells = [c.text for c in columns[best.index] if c.text.strip()]
    if best.context == 0 and 5 * sum(bool(_EDITION.match(t)) for t in cells) >= 4 * len(cells):
        return None  # "1988 Calgary", "1997 Oeiras": results by edition, no thing listed
    if 5 * sum(_described(t) for t in cells) >= 2 * len(cells):
        return None  # "Small car-free district at the center": descriptions, not names
    if best.context == 0 and _lists_groups(columns[best.index]):
        # "Shem Kororia Moses Tanui Kenneth Cheruiyot" beside "Kenya": the row is the team, and
        # its rank and time are the team's, not each runner's (a medal won by a team of a
        # "Name" column beside its event is each member's: no country to be the row there)
        single = [
            s
            for s in usable
            if (s.index < best.index or is_affiliation(s.header))
            and s.header_signal >= 0  # not a "Season" of results by edition
            and s.link_ratio >= 0.8
            and s.uniqueness == 1
            and all(len(c.links) <= 1 for c in columns[s.index])
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


# headers that say where a row is, not what kind of place it is
_WHERE = _words("location locations place places address locale")
# a key cell naming an edition of an event by its year ("1988 Calgary details")
_EDITION = re.compile(r"^\s*(1[5-9]|20)\d\d(?:[–-]\d{2,4})?\s+[A-Z]")


def _described(text: str) -> bool:
    """A cell that describes rather than names: most of its words are lowercase ("car free
    area of university campus", "Small car-free district at the center")."""
    words = [w for w in re.findall(r"[^\W\d_][\w'’-]*", text) if w.lower() not in _FUNCTION]
    return len(words) >= 4 and 2 * sum(w[:1].islower() for w in words) > len(words)


_FUNCTION = _words("of the a an and in at on for to by with de la le du des von van")


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
