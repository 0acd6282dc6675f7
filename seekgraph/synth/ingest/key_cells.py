"""What a key cell's row is about: the entities its links name, an unlinked name when they
name something the row's thing is named after or stands near, or no entity at all (a summary
row, a placeholder, prose).

Rules (each tested in `tests/test_ingest_cells.py` on cells from several corpora):

- **Several entities in one cell** keep every named link, in order (one anchor each when the
  cell is in the key column), except, in a key cell, links named only inside parentheses
  (``Against All Odds (with Mariah Carey)`` lists the song; Mariah Carey is a guest).
- **A thing's part in an event.** A key cell ``Canada`` linking ``Canada at the 2010 Winter
  Paralympics`` names the country, not its delegation: the row gets the unlinked name
  (`delegation`).
- **A name its page gives.** A key cell whose words say none of its link's title words
  names something else the page covers ("Lawler-Whiting House" linking its village) and gets
  an unlinked entity, unless the page's opening gives those words as its thing's name
  ("Prince Bira" linking Birabongse Bhanudej: `Cell.alias`, set by the link resolver).
- **Another code.** A key cell ``CHFA-5-FM`` linking ``CHFA-FM`` names a rebroadcaster, not
  the station whose page it links: the row gets the unlinked code (`other_code`).
- **Summary rows.** A key cell reading ``Total``, ``Average``, ``Totals``, ``Overall``, ... is a
  summary row (``summary_row``); ``-``, ``—``, ``N/A``, ``TBA``, ``TBD``, ``?`` or blank is a row
  without an entity (``blank_key``), and so are a draft's ``Pass``, ``Various works`` and a
  medal table's ``Men's Team`` without its members' names; a
  key cell of more than 15 words is prose, not a name (``prose_key``). All are rejected with
  their reason. The same placeholders in an attribute cell are no value at all
  (`cells.is_placeholder`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from seekgraph.common.text import word_set
from seekgraph.synth.ingest.cell_links import named_links, names_link
from seekgraph.synth.ingest.cell_lists import joins_names, listed_links
from seekgraph.synth.ingest.cells import (
    STOP_WORDS,
    WORD_PATTERN,
    before_script,
    content_words,
    fold_text,
    folded_words,
    is_placeholder,
    link_title_words,
    outside_parentheses,
    strip_disambiguator,
    unlinked_name,
)
from seekgraph.synth.ingest.records import Cell, title_from_id

SUMMARY_WORDS = frozenset(
    [
        "total",
        "totals",
        "sum",
        "average",
        "averages",
        "mean",
        "overall",
        "subtotal",
        "aggregate",
    ]
)
MAX_KEY_WORDS = 15
# a key cell starting with one of these says there is no entity ("None selected", "Vacant
# seat", "Various works")
PLACEHOLDER_STARTS = frozenset(["none", "n/a", "tba", "tbd", "vacant", "unknown", "various"])


def key_text(cell: Cell) -> str:
    """The text an unlinked key cell's entity is named from: the leading name when links name
    only what follows it (`led_by_name`), else the whole cell."""
    return led_by_name(cell.text, named_links(cell)) or cell.text


def _mentioned_in_a_name(text: str, links: Sequence[str]) -> bool:
    """A key cell of three or more words whose last word is a thing's head noun ("Graves",
    "Site", "Memorial", "Pack") that no link's title holds: the links are things its name
    mentions ("Itō Clan Graves" linking "Itō clan", "Grand Theft Auto Double Pack" linking the
    game), and the row's thing is the cell's own name."""
    latin = outside_parentheses(before_script(text))
    words = [w for w in content_words(latin) if not w.isdigit() and w not in _SUFFIXES]
    if len(words) < 3:
        return False
    named: set[str] = set()
    for link in links:
        named |= link_title_words(link)
    return words[-1] in _THING_HEADS and words[-1] not in named


_OF = re.compile(r"^(.+?)\s+of\s+(.+)$", re.IGNORECASE)
# what a place or a marker is of someone or something ("Birthplace and Childhood Home of ...")
_OF_HEADS = frozenset(
    [
        "birthplace",
        "home",
        "homestead",
        "boyhood",
        "childhood",
        "hall",
        "court",
        "office",
        "farm",
        "cabin",
        "mansion",
        "estate",
        "museum",
        "marker",
        "plaque",
        "headquarters",
    ]
)


def named_after(text: str, links: Sequence[str]) -> bool:
    """A key cell "<thing> of <name>" whose links name only what follows "of": the row's
    thing is the house, grave or marker the cell names, not the person or place it is of.

    >>> named_after("Birthplace and Childhood Home of Col. Harland Sanders", ["/wiki/Colonel_Sanders"])
    True
    >>> named_after("Tomb of Cyrus", ["/wiki/Cyrus_the_Great"])
    True
    >>> named_after("House of Commons", ["/wiki/House_of_Commons"])
    False
    >>> named_after("University of Cambridge", ["/wiki/Cambridge"])
    False
    """
    match = _OF.match(" ".join(outside_parentheses(text).split()))
    if not match or not links:
        return False
    thing = {w for w in content_words(match.group(1)) if not w.isdigit()}
    if not thing & (_THING_HEADS | _OF_HEADS):
        return False
    return not any(thing & link_title_words(link) for link in links)


_SUFFIXES = frozenset(["jr", "sr", "ii", "iii", "iv"])
# head nouns of a name that make it a thing of its own beside what it is named after
_THING_HEADS = frozenset(
    [
        "grave",
        "graves",
        "tomb",
        "tombs",
        "site",
        "sites",
        "ruins",
        "memorial",
        "monument",
        "statue",
        "house",
        "residence",
        "apartment",
        "building",
        "tower",
        "station",
        "bridge",
        "castle",
        "mound",
        "gate",
        "temple",
        "shrine",
        "pack",
        "edition",
        "soundtrack",
        "award",
        "prize",
        "trophy",
        "stadium",
        "park",
        "cemetery",
        "cemeteries",
        "chapel",
        "mill",
        "mills",
        "lighthouse",
        "hospital",
        "museum",
        "library",
        "airport",
        "case",
        "murder",
        "murders",
        "affair",
        "trial",
        "team",  # "1972 Canadian Summit Series hockey team" linking the series
        "scandal",
    ]
)


_LEAD = re.compile(r"^\s*([^()]+?)\s*\(([^()]{1,40})\)\s*([^()]+)$")


def led_by_name(text: str, links: Sequence[str]) -> str:
    """The name that leads a key cell when its links name only what follows a parenthesis
    ("Molière Gène (GLP) Anse-Bertrand" linking the rider's home town): the row's thing is the
    leading name, unlinked; '' for any other cell.

    >>> led_by_name("Molière Gène (GLP) Anse-Bertrand", ["/wiki/Anse-Bertrand"])
    'Molière Gène'
    >>> led_by_name("Flober Peña (COL)", ["/wiki/Flober_Peña"])
    ''
    """
    match = _LEAD.match(" ".join(text.split()))
    if not match or not links:
        return ""
    lead, tail = match.group(1), match.group(3)
    words = WORD_PATTERN.findall(lead)
    if len(words) < 2 or not all(w[:1].isupper() for w in words if fold_text(w) not in STOP_WORDS):
        return ""
    if any(names_link(lead, link) for link in links):
        return ""
    return lead if all(names_link(tail, link) for link in links) else ""


# words after a name that keep it the same thing: suffixes, honorifics' tails, company forms
_SAME_TAILS = frozenset(
    [
        "jr",
        "sr",
        "ii",
        "iii",
        "iv",
        "v",
        "vi",
        "fc",
        "f",
        "c",
        "afc",
        "cf",
        "sc",
        "ac",
        "inc",
        "ltd",
        "plc",
        "co",
        "corp",
        "llc",
        "gmbh",
        "ag",
        "sa",
        "bv",
        "the",
        "mp",
        "qc",
        "kc",
        "obe",
        "mbe",
        "cbe",
        "kbe",
        "dbe",
        "gbe",
        "vc",
    ]
)


def extends_title(text: str, links: Sequence[str]) -> bool:
    """A key cell that is its one link's title and more capitalised words after it ("Asda
    Magazine" linking Asda, "Waitrose Kitchen" linking Waitrose, "Lake Tahoe Dam" linking the
    lake): the row's thing is named after the page, not the page. Suffixes and company forms
    ("Jr.", "F.C.", "Ltd") keep it the page's.

    >>> extends_title("Asda Magazine", ["/wiki/Asda"]), extends_title("Asda", ["/wiki/Asda"])
    (True, False)
    >>> extends_title("Ken Griffey Jr.", ["/wiki/Ken_Griffey"])
    False
    >>> extends_title("Little Island, Cork", ["/wiki/Little_Island,_Cork"])
    False
    >>> extends_title("Bohemians A", ["/wiki/Bohemians_F.C."])
    True
    >>> extends_title("BC MoraBanc Andorra B", ["/wiki/BC_Andorra"]), extends_title("Aston Villa", ["/wiki/Aston_Villa_F.C."])
    (True, False)
    """
    if len(links) != 1:
        return False
    shown = outside_parentheses(text)
    page = strip_disambiguator(title_from_id(links[0]))
    title, whole = folded_words(page.split(",")[0]), set(folded_words(page))
    words = folded_words(shown)
    club = folded_words(_CLUB_FORM.sub("", page.split(",")[0]))
    side = len(words) > 1 and words[-1] in _SIDE_TEAMS
    if side and (club != title or len(words) - 1 > len(club)) and set(club) <= set(words[:-1]):
        # "Bohemians A" linking Bohemians F.C., "BC MoraBanc Andorra B" (a sponsor's name
        # inside) linking BC Andorra: the club's reserve side
        return True
    if not title or len(words) <= len(title) or words[: len(title)] != title:
        return False
    tail = [w for w in WORD_PATTERN.findall(shown)[len(title) :] if fold_text(w) not in whole]
    return any(w[:1].isupper() and fold_text(w) not in _SAME_TAILS for w in tail)


# a club's legal form after its name ("Bohemians F.C.", "Bray Wanderers A.F.C.")
_CLUB_FORM = re.compile(r"\s+(?:A\.?F\.?C|F\.?C|C\.?F|S\.?C|R\.?F\.?C)\.?$", re.IGNORECASE)
# a club's other sides named by a mark after the club's name ("Bohemians A", "Limerick U21")
_SIDE_TEAMS = frozenset(["a", "b", "ii", "iii", "reserves", "u19", "u21", "u23", "youth"])


_NEAR = re.compile(r"^(.+?)\s+(?:near|outside|close to)\s+(.+)$", re.IGNORECASE)


def delegation(text: str, link: str) -> bool:
    """A key cell that links the page of its thing's part in an event, "<cell> at the
    <event>": a country's delegation, a sport's events at the Games. The row is the thing the
    cell names (a country, a sport), not its team at the event; an event of the Games ("Men's
    5000 metres" linking "Speed skating at the 1972 Winter Olympics – Men's 5000 metres") is
    the page's own thing and stays linked.

    >>> delegation("Canada", "/wiki/Canada_at_the_2010_Winter_Paralympics")
    True
    >>> delegation("Men's 5000 metres", "/wiki/Speed_skating_at_the_1972_Winter_Olympics")
    False
    """
    shown = fold_text(" ".join(outside_parentheses(text).split()))
    title = fold_text(strip_disambiguator(title_from_id(link)))
    return bool(shown) and title.startswith(f"{shown} at the ")


# what a "No ..." key cell says was not held ("No World Cup arranged this season")
_NOT_HELD = word_set(
    """cup race competition contest event award winner champion champions tournament season
    games ceremony election final"""
)
_CODE = re.compile(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+")


def other_code(text: str, link: str) -> bool:
    """A key cell that is a code ("CHFA-5-FM", a rebroadcaster's call sign) linking a page
    titled by another code ("CHFA-FM", its parent station): the row is the thing the cell's
    code names, not the page's.

    >>> other_code("CHFA-5-FM", "/wiki/CHFA-FM"), other_code("CJXX-FM", "/wiki/CJXX-FM")
    (True, False)
    >>> other_code("WOI-TV", "/wiki/WOI-DT"), other_code("Bethel Church", "/wiki/Bethel_Church")
    (False, False)
    """
    shown = " ".join(text.split())
    title = strip_disambiguator(title_from_id(link))
    if not (_CODE.fullmatch(shown) and _CODE.fullmatch(title)) or shown == title:
        return False
    # one station under its old suffix ("WOI-TV" linking "WOI-DT") is the page's own thing;
    # another number ("CBON-FM-17", "WBKB-DT3", "T-90M") or another base is another thing
    numbered = [{p for p in code.split("-") if re.search(r"\d", p)} for code in (shown, title)]
    return shown.split("-")[0] != title.split("-")[0] or numbered[0] != numbered[1]


def near_place(text: str, links: Sequence[str]) -> bool:
    """A key cell "<site> near <place>" whose links name only the place: the row's thing is
    the site.

    >>> near_place("Killoteran near Waterford", ["/wiki/Waterford"])
    True
    >>> near_place("Battle of Pea Ridge", ["/wiki/Battle_of_Pea_Ridge"])
    False
    """
    match = _NEAR.match(" ".join(outside_parentheses(text).split()))
    if not match or not links:
        return False
    site, place = match.group(1), match.group(2)
    return all(names_link(place, x) and not names_link(site, x) for x in links)


def key_links(cell: Cell) -> tuple[str, ...]:
    """The entities a key cell lists: its named links, without those it names only in
    parentheses (``Back at One (with Lulu)`` lists the song, not Lulu). When every link is in
    parentheses and text stands outside them (``Sharpshooters (Cass Phang)``), or when a dash
    joins names no link names whole (``Seattle - Tacoma``, `joins_names`), the cell lists
    that unlinked text: the result is empty and the row gets an unlinked entity."""
    named = named_links(cell)
    if not named:
        return named
    if joins_names(cell.text, named):
        return ()
    if all(fold_text(title_from_id(link)).startswith("list of ") for link in named):
        return ()  # "Phoenix Suns" linking "List of Phoenix Suns seasons": the team, unlinked
    if all(delegation(cell.text, link) for link in named):
        return ()  # "Canada" linking "Canada at the 2010 Winter Paralympics": the country
    if len(named) == 1 and other_code(cell.text, named[0]):
        return ()  # "CHFA-5-FM" linking "CHFA-FM": the rebroadcaster, unlinked
    if _mentioned_in_a_name(cell.text, named):
        return ()  # "Bakumatsu Loyalists' Graves" linking "Bakumatsu": the graves, unlinked
    if named_after(cell.text, named):
        return ()  # "Birthplace of Col. Harland Sanders" linking the man: the house, unlinked
    if led_by_name(cell.text, named):
        return ()  # "Molière Gène (GLP) Anse-Bertrand": the rider, not his home town
    if near_place(cell.text, named):
        return ()  # "Killoteran near Waterford" linking the city: the mill site, unlinked
    if extends_title(cell.text, named):
        return ()  # "Asda Magazine" linking the supermarket: the magazine, unlinked
    outside = outside_parentheses(cell.text)
    main = tuple(link for link in named if names_link(outside, link))
    if main:
        return listed_links(cell, main)
    if cell.alias:
        return named  # "Prince Bira" linking Birabongse Bhanudej, whose page says the name
    return () if folded_words(outside) else named


def key_rejection(cell: Cell) -> str | None:
    """``summary_row`` or ``blank_key`` when a key cell holds no entity of the table, else None."""
    text = " ".join(cell.text.split()).strip()
    if not cell.links and is_placeholder(text):
        return "blank_key"
    # a name is counted without its original script and reading ("Ōsumi Kokubun-ji and
    # Miyatagaoka Tile Kiln Sites 大隅国分寺 跡附... Ōsumi Kokubunji ato ...": one site), linked
    # or not ("Landscape of Oku no Hosomichi - Nata-dera Precinct おくのほそ道の風景地 ...")
    name = before_script(text) if cell.links else unlinked_name(text)
    if len(folded_words(name)) > MAX_KEY_WORDS:
        return "prose_key"  # a sentence or a track list names no one entity
    first = fold_text(text).split()[0] if text else ""
    if (
        cell.links
        and first in SUMMARY_WORDS
        and not fold_text(title_from_id(cell.links[0])).startswith(first)
    ):
        return "summary_row"  # "Total Berlin" linking Berlin: the sum of the rows above
    if cell.links:
        return None  # a linked cell names its entity ("Average White Band", "Total Drama")
    if first in PLACEHOLDER_STARTS:
        return "blank_key"
    words = folded_words(text)
    if words[:2] in (["grand", "total"], ["grand", "totals"]):
        return "summary_row"
    if words and words[0] in SUMMARY_WORDS and len(words) <= 3:
        return "summary_row"
    if words in (["all"], ["combined"], ["others"], ["other"]):
        return "summary_row"
    if words[:1] == ["no"] and set(words[1:4]) & _NOT_HELD:
        return "blank_key"  # "No World Cup arranged this season", "No race": nothing won
    if words in (["pass"], ["passed"], ["forfeited"], ["forfeit"]):
        return "blank_key"  # a draft pick a club passed on: no player
    if words[:1] in (["men"], ["women"], ["mixed"]) and words[1:3] in (["s", "team"], ["team"]):
        return "blank_key"  # "Men's Team": a medal without its members' names
    return None
