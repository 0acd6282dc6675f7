"""Entities a key column names without a link of their own, and their ids: a name another row
of the column links (its first mention), a page several rows link under longer names (each row
is its own thing named after the page), or a name rows repeat at different places (one thing at
each place).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from seekgraph.synth.ingest.cells import display_name, strip_disambiguator, unlinked_name
from seekgraph.synth.ingest.key_cells import key_links, key_text
from seekgraph.synth.ingest.records import Cell, RawTable, title_from_id
from seekgraph.synth.ingest.values import clean_text

UNLINKED = "unlinked:"


def unlinked_id(name: str) -> str:
    """The id of an entity a key cell names without a link: ``unlinked:<folded name>``."""
    return UNLINKED + " ".join(name.lower().split())


def folded_name(name: str) -> str:
    """`name` case-folded with its spaces collapsed: how two mentions of one name compare."""
    return " ".join(name.casefold().split())


def _linked_names(key_cells: Iterable[Cell], titles: bool = False) -> Iterable[tuple[str, str]]:
    """(page, folded name) of each key cell that links one page: its text, and with `titles`
    the page's own title too (a later row may write the name out in full: "Sydney RC" linked,
    then "Sydney Rowing Club" unlinked)."""
    for cell in key_cells:
        links = key_links(cell)
        text = clean_text(key_text(cell))
        if len(links) == 1 and text:
            yield links[0], folded_name(unlinked_name(text))
            if titles:
                yield links[0], folded_name(strip_disambiguator(title_from_id(links[0])))


def first_mentions(key_cells: Iterable[Cell]) -> dict[str, str]:
    """Names of a key column that one of its cells links, and the page it links: Wikipedia
    links a name at its first mention only, so another row naming the same person unlinked
    ("Chauncey Billups" of 1994 and 1995 beside the linked 1993 row, "Andy Lee (2)") is the
    same entity, not a second one of the same name. A name linked to two pages in one column
    is left out (two people of one name are told apart by their links).

    >>> first_mentions([Cell("Andy Lee", ("/wiki/Andy_Lee_(American_football)",)),
    ...     Cell("Andy Lee (2)", ())])
    {'andy lee': '/wiki/Andy_Lee_(American_football)'}
    >>> first_mentions([Cell("Sydney RC", ("/wiki/Sydney_Rowing_Club",))])["sydney rowing club"]
    '/wiki/Sydney_Rowing_Club'

    """
    pages: dict[str, set[str]] = {}
    for link, name in _linked_names(key_cells, titles=True):
        pages.setdefault(name, set()).add(link)
    return {name: next(iter(links)) for name, links in pages.items() if len(links) == 1}


def links_named_apart(key_cells: Iterable[Cell]) -> set[str]:
    """Pages that several cells of a key column link under longer names, or under a name of
    their own each (at least three, in at least half the cells linking it): the rows list
    things at or after the page ("Little Island 1" and "Little Island 2", two mills linking
    the place) or in it (the games of a collection), so each row's thing is its cell's name,
    not the page. (A capitalised tail, "Old Windsor I", is caught cell by cell:
    `key_cells.extends_title`.)

    >>> links_named_apart([Cell("Little Island 1", ("/wiki/Little_Island,_Cork",)),
    ...     Cell("Little Island 2", ("/wiki/Little_Island,_Cork",)), Cell("Ebbsfleet",
    ...     ("/wiki/Ebbsfleet",)), Cell("Ebbsfleet", ("/wiki/Ebbsfleet",)), Cell("Liverpool",
    ...     ("/wiki/Liverpool_F.C.",)), Cell("Liverpool F.C.", ("/wiki/Liverpool_F.C.",))])
    {'/wiki/Little_Island,_Cork'}
    >>> links_named_apart([Cell(f"Phantasy Star II: {n}'s Adventure",
    ...     ("/wiki/Phantasy_Star_II_Text_Adventures",)) for n in ("Amia", "Anne", "Huey")])
    {'/wiki/Phantasy_Star_II_Text_Adventures'}
    """
    names: dict[str, set[str]] = {}
    cells: dict[str, int] = {}
    for link, name in _linked_names(key_cells):
        names.setdefault(link, set()).add(name)
        cells[link] = cells.get(link, 0) + 1
    apart = set()
    for link, said in names.items():
        # each name is the page's and more ("Old Windsor" + "I"): a name that is the page's
        # own, or another name of it ("Man Utd"), lists the page itself
        head = folded_name(display_name(link).split(",")[0])
        if len(said) > 1 and all(n != head and n.startswith(head + " ") for n in said):
            apart.add(link)
        elif len(said) >= 3 and 2 * len(said) >= cells[link] and head not in said:
            # eight games "Phantasy Star II: Amia's Adventure", "... Anne's Adventure", each
            # linking the page of the collection: a name per row is a thing per row (three
            # spellings of one club over twenty seasons are not)
            apart.add(link)
    return apart


# headers of a column that says where each row's thing is ("Location", "City, State", "Town")
PLACE_HEADERS = frozenset({
    "location", "city", "town", "village", "county", "municipality", "community", "parish",
    "locality", "suburb",
})  # fmt: skip
_PLACE_END = re.compile(r"[,(;/]|\d")


def _place_of(cell: Cell) -> str:
    """The place a location cell names first: its first link's name without the region after
    the comma ("Carlisle, Cumbria" -> Carlisle), else its text up to a comma, bracket or
    digit ("Gloucester 51°51′38′′N ..." -> Gloucester)."""
    if cell.links:
        return display_name(cell.links[0]).split(",")[0].strip()
    return _PLACE_END.split(clean_text(cell.text), maxsplit=1)[0].strip()


def names_placed_apart(table: RawTable, key: int) -> dict[int, str]:
    """Rows whose unlinked key name another row repeats at another place, with their place:
    two churches both called "Christ Church", one in Gloucester and one in Carlisle, are two
    things, told apart as "Christ Church (Gloucester)" and "Christ Church (Carlisle)". The
    same person in several rows of an award list has no place column that differs, so stays
    one entity.

    >>> t = RawTable("t", "csv", "T", "", "", ["Name", "Location"], [[Cell("Christ Church", ()),
    ...     Cell("Gloucester 51°51′N", ())], [Cell("Christ Church", ()), Cell("Carlisle, Cumbria",
    ...     ("/wiki/Carlisle,_Cumbria",))], [Cell("St Paul's", ()), Cell("Preston", ())]])
    >>> names_placed_apart(t, 0)
    {0: 'Gloucester', 1: 'Carlisle'}
    >>> jumps = RawTable("j", "csv", "T", "", "", ["Athlete", "Location"], [
    ...     [Cell("Adhemar da Silva (BRA)", ("/wiki/Adhemar_da_Silva",)), Cell("São Paulo")],
    ...     [Cell("Adhemar da Silva (BRA)", ()), Cell("Rio de Janeiro")],
    ...     [Cell("Adhemar da Silva (BRA)", ()), Cell("Helsinki")]])
    >>> names_placed_apart(jumps, 0)
    {}
    """
    places = [
        c
        for c, h in enumerate(table.header)
        if c != key and set(re.findall(r"[a-z]+", h.lower())) & PLACE_HEADERS
    ]
    if not places:
        return {}
    # a name another row links is that page's thing wherever it is (a jumper's records at
    # Rio and Helsinki beside the linked first one): only names never linked are placed apart
    linked = first_mentions(row[key] for row in table.rows if key < len(row))
    rows: dict[str, dict[int, str]] = {}
    for r, row in enumerate(table.rows):
        cell = row[key]
        text = clean_text(key_text(cell))
        if key_links(cell) or not text or places[0] >= len(row):
            continue
        place = _place_of(row[places[0]])
        name = folded_name(unlinked_name(text))
        if place and name not in linked:
            rows.setdefault(name, {})[r] = place
    return {
        r: place
        for at in rows.values()
        if len({folded_name(p) for p in at.values()}) > 1
        for r, place in at.items()
    }
