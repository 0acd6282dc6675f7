"""Reading one table cell right: which links name an entity, which rows are summaries, and the
surface name of an entity.

Rules (each tested in `tests/test_ingest_cells.py` on cells from several corpora):

- **Icon links.** A cell such as ``[flag] Pelé`` links both ``/wiki/Brazil`` and ``/wiki/Pelé``;
  the flag is not what the cell names. A link is *named* by the cell when a content word of its
  title (disambiguator dropped) occurs in the cell text, or when the text is its initials
  (``UK`` → United Kingdom). When some links of a cell are named, the others are icons and are
  dropped; a cell whose single link is not named keeps it (``the Reds`` → Liverpool F.C.).
- **Several entities in one cell** keep every named link, in order (one anchor each when the
  cell is in the key column), except, in a key cell, links named only inside parentheses
  (``Against All Odds (with Mariah Carey)`` lists the song; Mariah Carey is a guest).
- **One thing or several.** A cell with several named links lists several things only when its
  text says so: a separator outside parentheses (``,`` ``/`` ``&`` ``;`` `` and ``), or names
  that split the text between them (each link names its own words, together most of the text:
  ``Willie Davenport (USA) Leon Coleman (USA)``; not ``Chennai Southern side of the Madras
  University``, whose other words are a phrase). Otherwise the cell names one thing, the link
  that names most of its text (`one_thing`).
- **Names joined by a dash** (``Seattle - Tacoma``, ``Jordan - Mugen-Honda``) are one compound
  thing that no link names whole: an unlinked entity in a key cell, a text value elsewhere
  (`joins_names`).
- **A link that names something else.** A cell ``2007–08`` linking ``2007–08 Liga de Honra``,
  ``Brazil`` linking ``Brazil at the 1979 Pan American Games`` or ``Minnesota Vikings`` linking
  ``2011 Minnesota Vikings season``, or any page whose title starts with a year or season the
  cell does not show (``Tulsa`` linking ``1969 Tulsa Golden Hurricane football team``, ``19th in
  Segunda División`` linking the league's season), or a page sharing only some of the cell's
  words (``St. Joan of Arc Turf Field`` linking the school), holds the cell's text, not the page
  (`names_other`).
- **Summary rows.** A key cell reading ``Total``, ``Average``, ``Totals``, ``Overall``, ... is a
  summary row (``summary_row``); ``-``, ``—``, ``N/A``, ``TBA``, ``TBD``, ``?`` or blank is a row
  without an entity (``blank_key``); a key cell of more than 15 words is prose, not a name
  (``prose_key``). All are rejected with their reason. The same placeholders
  in an attribute cell are no value at all (`is_placeholder`).
- **Mentions.** An attribute cell whose words are mostly not its links' names ("Scrapped at
  Jiangyin in 2009") is a text value; its links are mentions (`mentions_only`).
- **Names.** An entity's name comes from its id alone (``/wiki/Disgrace_(novel)`` → ``Disgrace``:
  underscores to spaces, the parenthesised disambiguator stripped), so no table's mention can
  rename it; the disambiguator stays in the id.

>>> named_links(Cell("Pelé", ("/wiki/Brazil", "/wiki/Pelé")))
('/wiki/Pelé',)
>>> display_name("/wiki/Disgrace_(novel)")
'Disgrace'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from seekgraph.synth.ingest.records import Cell, title_from_id

_DISAMBIGUATOR = re.compile(r"\s*\([^()]*\)\s*$")
_WORD = re.compile(r"\w+")
_STOP = frozenset(
    [
        "the",
        "of",
        "and",
        "a",
        "an",
        "in",
        "on",
        "at",
        "for",
        "to",
        "de",
        "la",
        "le",
        "el",
        "da",
        "van",
        "von",
        "der",
    ]
)
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
BLANK_KEYS = frozenset(["", "-", "--", "—", "–", "n/a", "na", "tba", "tbd", "?", "none", "…"])
MAX_KEY_WORDS = 15
# a key cell starting with one of these says there is no entity ("None selected", "Vacant seat")
PLACEHOLDER_STARTS = frozenset(["none", "n/a", "tba", "tbd", "vacant", "unknown"])


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in text if not unicodedata.combining(ch)).lower()


def _words(text: str) -> list[str]:
    return _WORD.findall(_fold(text))


def strip_disambiguator(title: str) -> str:
    """``Disgrace (novel)`` → ``Disgrace``; a title that is only parentheses stays."""
    stripped = _DISAMBIGUATOR.sub("", title).strip()
    return stripped or title.strip()


_ENUMERATION = re.compile(r"^\s*\(?\d{1,3}\s*[-.)–]\s+")
# "Andrew C. Maxwell House -demolished", "Old Mill (destroyed)": what became of it, after a dash
# or in brackets at the end of an unlinked name
_STATUS_NOTE = re.compile(
    r"\s*(?:[-–—]\s*|\(\s*)(?:now\s+)?(?:demolished|destroyed|razed|burned|burnt|closed|defunct|"
    r"removed|relocated|moved|delisted|ruined|abandoned)(?:\s+(?:in\s+)?\d{4})?\s*\)?\s*$",
    re.IGNORECASE,
)
# Chinese, Japanese or Korean script: a name's original beside its English one
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def key_text(cell: Cell) -> str:
    """The text an unlinked key cell's entity is named from: the leading name when links name
    only what follows it (`led_by_name`), else the whole cell."""
    return led_by_name(cell.text, named_links(cell)) or cell.text


def unlinked_name(text: str) -> str:
    """The name of an unlinked key cell: list numbers and trailing parentheses dropped, and
    the original script and its reading after an English name (``10- Hung Hing Ying Building
    (1919)`` → ``Hung Hing Ying Building``; ``Enokida Barrier Site 榎田関跡 Enokida seki ato`` →
    ``Enokida Barrier Site``).

    >>> unlinked_name("Enokida Barrier Site 榎田関跡 Enokida seki ato")
    'Enokida Barrier Site'

    A note of what became of the thing after a dash is not its name:

    >>> unlinked_name("Andrew C. Maxwell House -demolished")
    'Andrew C. Maxwell House'

    A name written twice (a hidden sort key before the shown name) is one name:

    >>> unlinked_name("Why Ancient Egypt Fell Why Ancient Egypt Fell")
    'Why Ancient Egypt Fell'
    >>> unlinked_name("Colbert Report, The The Colbert Report")
    'The Colbert Report'
    """
    latin = _before_script(text)
    text = undoubled(latin if _WORD.search(latin) else text)
    text = _STATUS_NOTE.sub("", text)
    return strip_disambiguator(_ENUMERATION.sub("", text)).strip() or text.strip()


_PAIR = re.compile(r"^([^/]+?)\s+/\s+([^/]+)$")


def paired_names(name: str) -> tuple[str, ...]:
    """The two people of an unlinked key cell that names a pair as "A / B" (the pairs of a
    skating or dance result, whose linked cells are two entities already), else the name.
    Each side must read as a person's name: two to four words, each capitalised.

    >>> paired_names("Olga Neizvestnaya / Sergei Hudyakov")
    ('Olga Neizvestnaya', 'Sergei Hudyakov')
    >>> paired_names("Bosnia / Herzegovina"), paired_names("Song of the year / Album")
    (('Bosnia / Herzegovina',), ('Song of the year / Album',))
    """
    match = _PAIR.match(name)
    if not match:
        return (name,)
    sides = (match.group(1).strip(), match.group(2).strip())
    return sides if all(_reads_as_a_name(side.split()) for side in sides) else (name,)


def _reads_as_a_name(tokens: Sequence[str]) -> bool:
    """Two to four words, each capitalised: how a person's name reads (a pair's side, the
    second name a cell runs on with)."""
    return 2 <= len(tokens) <= 4 and all(t[:1].isupper() for t in tokens)


def undoubled(text: str) -> str:
    """The shown name of a cell that holds it twice: ``A A`` (a sort key equal to the name) or
    ``B, The The B`` (a sort key with the article moved to the end); else the text. A name of
    one word said twice is a name ("Duran Duran").

    >>> undoubled("Duran Duran"), undoubled("New York New York")
    ('Duran Duran', 'New York')
    """
    words = text.split()
    half = len(words) // 2
    if half >= 2 and len(words) % 2 == 0 and words[:half] == words[half:]:
        return " ".join(words[:half])
    moved = re.fullmatch(r"(.+), (The|A|An) \2 \1", text.strip())
    return f"{moved.group(2)} {moved.group(1)}" if moved else text


def _before_script(text: str) -> str:
    """The text before its first Chinese, Japanese or Korean character (all of it if none),
    without the bracket or dash that opened the cut part ("Kaisho (海翔)" -> "Kaisho").

    >>> _before_script("Kaisho (海翔)"), _before_script("Tokyo – 東京")
    ('Kaisho', 'Tokyo')
    """
    cut = _CJK.search(text)
    return text[: cut.start()].rstrip(" ([{–-—/,:;") if cut else text


def display_name(entity_id: str) -> str:
    """The surface name of an entity, from its id alone (see the module docstring)."""
    return strip_disambiguator(title_from_id(entity_id))


def names_link(text: str, link: str) -> bool:
    """True when the cell text names the link's target (a content word, or its initials)."""
    title_words = [w for w in _words(strip_disambiguator(title_from_id(link))) if w not in _STOP]
    text_words = set(_words(text))
    if not title_words:
        return True
    if any(w in text_words for w in title_words):
        return True
    initials = "".join(w[0] for w in title_words)
    compact = "".join(_words(text))
    return len(initials) >= 2 and compact == initials


def named_links(cell: Cell) -> tuple[str, ...]:
    """The links the cell names, in order; icon links beside named ones are dropped."""
    if len(cell.links) <= 1 or not cell.text.strip():
        return cell.links
    named = tuple(link for link in cell.links if names_link(cell.text, link))
    return named or cell.links


_PARENTHESES = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")


def outside_parentheses(text: str) -> str:
    """The text with every (nested) parenthesised or bracketed part removed."""
    previous = None
    while previous != text:
        previous, text = text, _PARENTHESES.sub(" ", text)
    return text


def _mentioned_in_a_name(text: str, links: Sequence[str]) -> bool:
    """A key cell of three or more words whose last word is a thing's head noun ("Graves",
    "Site", "Memorial", "Pack") that no link's title holds: the links are things its name
    mentions ("Itō Clan Graves" linking "Itō clan", "Grand Theft Auto Double Pack" linking the
    game), and the row's thing is the cell's own name."""
    latin = outside_parentheses(_before_script(text))
    words = [w for w in _content(latin) if not w.isdigit() and w not in _SUFFIXES]
    if len(words) < 3:
        return False
    named: set[str] = set()
    for link in links:
        named |= _title_words(link)
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
    thing = {w for w in _content(match.group(1)) if not w.isdigit()}
    if not thing & (_THING_HEADS | _OF_HEADS):
        return False
    return not any(thing & _title_words(link) for link in links)


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
    words = _WORD.findall(lead)
    if len(words) < 2 or not all(w[:1].isupper() for w in words if _fold(w) not in _STOP):
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
    """
    if len(links) != 1:
        return False
    shown = outside_parentheses(text)
    page = strip_disambiguator(title_from_id(links[0]))
    title, whole = _words(page.split(",")[0]), set(_words(page))
    words = _words(shown)
    if not title or len(words) <= len(title) or words[: len(title)] != title:
        return False
    tail = [w for w in _WORD.findall(shown)[len(title) :] if _fold(w) not in whole]
    return any(w[:1].isupper() and _fold(w) not in _SAME_TAILS for w in tail)


_NEAR = re.compile(r"^(.+?)\s+(?:near|outside|close to)\s+(.+)$", re.IGNORECASE)


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
    if all(_fold(title_from_id(link)).startswith("list of ") for link in named):
        return ()  # "Phoenix Suns" linking "List of Phoenix Suns seasons": the team, unlinked
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
    return () if _words(outside) else named


_SEPARATOR = re.compile(r",|/|&|;|\+|\n|\band\b|\bet\b|\by\b", re.IGNORECASE)


_DASH = re.compile(r"\s[-–—]\s")


def _content(text: str) -> list[str]:
    return [w for w in _words(text) if w not in _STOP]


def _title_words(link: str) -> set[str]:
    return {w for w in _words(strip_disambiguator(title_from_id(link))) if w not in _STOP}


def _covered(text: str, link: str) -> set[str]:
    title = _title_words(link)
    return {w for w in _content(text) if w in title}


def _spans(words: list[str], links: Sequence[str]) -> list[tuple[int, int]] | None:
    """Where each link's name stands in `words`, in order and without overlap (None when one
    is not there as a whole)."""
    spans: list[tuple[int, int]] = []
    cursor = 0
    for link in links:
        name = _words(strip_disambiguator(title_from_id(link)))
        found = next(
            (
                (i, i + len(name))
                for start in (cursor, 0)
                for i in range(start, len(words) - len(name) + 1)
                if words[i : i + len(name)] == name
                and not any(a < i + len(name) and i < b for a, b in spans)
            ),
            None,
        )
        if not name or found is None:
            return None
        spans.append(found)
        cursor = found[1]
    return spans


def lists_several(text: str, links: Sequence[str]) -> bool:
    """True when a cell with these named links lists several things (see the module doc): a
    separator outside parentheses, or each link's whole name standing in its own place in the
    text, with only more names between them, never lowercase words (a dash between two names joins one compound
    name: a race "Milan – San Remo", "Talbot-Lago - Talbot").

    >>> lists_several("Yang Yang ( A ) Yang Yang ( S ) Wang Chunlu Sun Dandan",
    ...               ["/wiki/Yang_Yang_(A)", "/wiki/Yang_Yang_(S)", "/wiki/Wang_Chunlu"])
    True
    >>> lists_several("Talbot-Lago - Talbot", ["/wiki/Talbot-Lago", "/wiki/Talbot"])
    False
    >>> lists_several("Atlético Marte Monterrey", ["/wiki/C.D._Atlético_Marte", "/wiki/C.F._Monterrey"])
    True
    >>> lists_several("Chennai Southern side of the Madras University",
    ...               ["/wiki/Chennai", "/wiki/University_of_Madras"])
    False
    """
    if len(links) < 2:
        return False
    outside = outside_parentheses(text)
    if _SEPARATOR.search(outside):
        return True
    if _DASH.search(outside):
        return False
    words = _words(outside)
    spans = _spans(words, links)
    if spans is not None:
        covered = {i for a, b in spans for i in range(a, b)}
    else:  # names shortened in the text ("Monterrey" for C.F. Monterrey): words of their own
        covers = [{i for i, w in enumerate(words) if w in _title_words(link)} for link in links]
        if not all(covers) or sum(map(len, covers)) != len(set().union(*covers)):
            return False
        covered = set().union(*covers)
    shown = _WORD.findall(outside)
    rest = [shown[i] for i, w in enumerate(words) if i not in covered and w not in _STOP]
    # what the names leave is more names ("Sun Dandan"), not a phrase ("side of the")
    return len(shown) == len(words) and all(w[:1].isupper() or w[:1].isdigit() for w in rest)


def names_group(text: str, links: Sequence[str]) -> bool:
    """Whether a linked cell names a group of several things: it lists several links, or beside
    its links it holds at least twice as many capitalised words of other names (a team of six
    runners linking one of them).

    >>> names_group("Mick Neville Derek Graham John McDonnell Pat Killeen", ["/wiki/Derek_Graham"])
    True
    >>> names_group("Prince Leopold , Duke of Albany", ["/wiki/Prince_Leopold,_Duke_of_Albany"])
    False
    """
    if lists_several(text, links):
        return True
    shown = _WORD.findall(outside_parentheses(text))
    titled = set().union(*(_title_words(link) for link in links))
    rest = [w for w in shown if _fold(w) not in titled and _fold(w) not in _STOP]
    named = len(shown) - len(rest)
    return bool(links) and len(rest) >= max(4, 2 * named) and all(w[:1].isupper() for w in rest)


def median_words(texts: Iterable[str]) -> float:
    """How many words a column's cells usually have: the median over its non-empty `texts` (2
    when there are none), the length `glued_names` and `run_on_name` compare a cell with.

    >>> median_words(["Bo Wålemark", "Ian Burchnall", "", "Esmaeil Sedigh Joel Villarino"])
    2.0
    """
    sizes = sorted(len(t.split()) for t in texts if t.strip())
    return float(sizes[len(sizes) // 2]) if sizes else 2.0


def glued_names(text: str, links: Sequence[str], usual_words: float) -> bool:
    """Whether a key cell runs several people's names together with no separator, some of them
    unlinked: a relay team "Ivica Ivičak Milorad Čikić Milovan Savić Josip Alebić" linking
    three of the four, or "Sugiri Supardi Wahjudi Jootje Oroh" linking none, in a column whose
    names are usually `usual_words` long. Its unlinked members cannot be told apart, so a list
    of the column's things cannot be given right.

    >>> glued_names("Sugiri Supardi Wahjudi Jootje Oroh", [], 2.0)
    True
    >>> glued_names("Ivica Ivičak Milorad Čikić Milovan Savić", ["/wiki/Milovan_Savić"], 2.0)
    True
    >>> glued_names("Mohammad Sarengat", ["/wiki/Mohammad_Sarengat"], 2.0)
    False
    >>> glued_names("Royal Society for the Protection of Birds", [], 4.0)
    False
    """
    shown = _WORD.findall(outside_parentheses(text))
    titled = set().union(*(_title_words(link) for link in links)) if links else set()
    rest = [w for w in shown if _fold(w) not in titled and _fold(w) not in _STOP]
    if len(rest) < 2 or not all(w[:1].isupper() for w in rest):
        return False
    if links:
        return names_group(text, links) or len(shown) >= 2 * max(usual_words, 2.0)
    return len(shown) >= max(4, 2 * usual_words) and not set(map(_fold, shown)) & _STOP


# words that make the name run on after a link a part of one organisation or place ("Stan Lai
# Performance Workshop", "Obama Presidential Library"), not a second person
_PART_WORDS = frozenset(
    [
        "academy",
        "arena",
        "association",
        "avenue",
        "band",
        "borough",
        "building",
        "bureau",
        "castle",
        "cathedral",
        "center",
        "centre",
        "church",
        "city",
        "club",
        "college",
        "company",
        "corporation",
        "cup",
        "district",
        "edition",
        "entertainment",
        "films",
        "formation",
        "formerly",
        "foundation",
        "group",
        "hall",
        "hospital",
        "house",
        "institute",
        "international",
        "league",
        "library",
        "limited",
        "ltd",
        "memorial",
        "mess",
        "museum",
        "music",
        "orchestra",
        "palace",
        "park",
        "pictures",
        "press",
        "productions",
        "records",
        "road",
        "round",
        "school",
        "series",
        "site",
        "society",
        "source",
        "square",
        "stadium",
        "stage",
        "station",
        "street",
        "studio",
        "studios",
        "team",
        "temple",
        "theatre",
        "theater",
        "tour",
        "tower",
        "town",
        "trust",
        "university",
        "village",
        "workshop",
    ]
)


def run_on_name(text: str, link: str, usual_words: float) -> str:
    """The second name of an attribute cell that runs two names together with no separator, the
    first one linked ("Esmaeil Sedigh Joel Villarino" linking Esmaeil Sedigh: two head
    coaches); "" when the cell names one thing.

    The cell's words must start with every word of the link's title and go on with two to four
    capitalised words of their own, none of them a word that makes one longer name of an
    organisation or place (`_PART_WORDS`), and the cell must be at least twice as long as its
    column's cells usually are (`usual_words`): "PAL System I" in a column of "PAL System I"s is
    one name, however its words look.

    >>> run_on_name("Esmaeil Sedigh Joel Villarino", "/wiki/Esmaeil_Sedigh", 2.0)
    'Joel Villarino'
    >>> run_on_name("Stan Lai Performance Workshop", "/wiki/Stan_Lai", 2.0)
    ''
    >>> run_on_name("Radisson Blu Global City", "/wiki/Radisson_Blu", 3.0)
    ''
    >>> run_on_name("John Smith Jr", "/wiki/John_Smith", 2.0)
    ''
    """
    tokens = text.split()
    if any(mark in text for mark in "(,:'’") or len(tokens) < 2 * max(usual_words, 2.0):
        return ""
    title = _title_words(link)
    seen: set[str] = set()
    cut = 0
    while cut < len(tokens) and seen != title:
        words = _words(tokens[cut])
        if not words or not set(words) <= title:
            return ""
        seen.update(words)
        cut += 1
    rest = tokens[cut:]
    if seen != title or not _reads_as_a_name(rest):
        return ""
    for token in rest:
        words = _words(token)
        if not re.fullmatch(r"[^\W\d_][\w'’.-]*", token):
            return ""
        if set(words) & (_STOP | _PART_WORDS | title):
            return ""
    return " ".join(rest)


_SEVERAL = re.compile(r"\(\s*s\s*\)|\bor\s+more\b", re.IGNORECASE)


def holds_several(header: str) -> bool:
    """Whether a column's header says a cell may hold several things ("State(s)", "First
    driver ( s )"): its dashes separate a list ("DC - MD - VA"), and it is not what a row is."""
    return bool(_SEVERAL.search(header))


_JOIN = re.compile(r"\s[-–—]\s|[–—]")


def joins_names(text: str, links: Sequence[str]) -> bool:
    """True when a dash joins names into one compound name that no one link of the cell names
    whole: a metropolitan area ``Seattle - Tacoma`` (linking Seattle), a car ``Jordan -
    Mugen-Honda`` (linking the team and the engine). The cell is one thing known by its text:
    a key cell is one unlinked entity, an attribute cell a text value. A link whose title holds
    both sides (``Milan – San Remo``) names the cell.

    >>> joins_names("Portland - Vancouver - Salem", ["/wiki/Portland,_Oregon", "/wiki/Salem,_Oregon"])
    True
    >>> joins_names("Milan – San Remo", ["/wiki/Milan–San_Remo"])
    False
    >>> joins_names("Mugen-Honda", ["/wiki/Mugen_Motorsports"])
    False
    """
    parts = [p for p in _JOIN.split(outside_parentheses(text)) if _content(p)]
    if len(parts) < 2 or not links:
        return False
    if not all(any(w[:1].isupper() for w in _WORD.findall(p)) for p in parts):
        return False  # a range or a result ("1990 - present", "won - 3 sets"), not names
    return not any(all(set(_content(p)) & _title_words(link) for p in parts) for link in links)


def one_thing(text: str, links: Sequence[str]) -> str:
    """The link that names most of the cell's text (the first on a tie)."""
    outside = outside_parentheses(text) if _words(outside_parentheses(text)) else text
    return max(links, key=lambda link: (len(_covered(outside, link)), -links.index(link)))


def listed_links(cell: Cell, named: tuple[str, ...]) -> tuple[str, ...]:
    """`named` as the entities the cell lists: all of them when it lists several things,
    else the one that names its text."""
    titles = {link: set(_words(strip_disambiguator(title_from_id(link)))) for link in named}
    # "Prince Leopold, Duke of Albany" links the prince and his title "Duke of Albany": a link
    # whose name is part of another's is that name's part, not a second thing
    named = tuple(
        link for link in named if not any(titles[link] < titles[o] for o in named if o != link)
    )
    if len(named) < 2 or lists_several(cell.text, named):
        return named
    return (one_thing(cell.text, named),)


_DATED = re.compile(r"^(\d{4}(?:-\d{2,4})?)\s")


def _dashes(text: str) -> str:
    return re.sub(r"\s*[–—−]\s*", "-", text)


_SEASON = re.compile(r"^\d{4}(?:\s*[-–/]\s*\d{2,4})?$")
_AT_THE = re.compile(r"\bat the\b")


def names_other(text: str, link: str) -> bool:
    """True when the linked page is about something other than what the cell says: an event or
    season page behind a year, a country, a team or a sport (see the module doc).

    >>> names_other("2007–08", "/wiki/2007–08_Liga_de_Honra")
    True
    >>> names_other("Brazil", "/wiki/Brazil_at_the_1979_Pan_American_Games")
    True
    >>> names_other("Minnesota Vikings", "/wiki/2011_Minnesota_Vikings_season")
    True
    >>> names_other("Tulsa", "/wiki/1969_Tulsa_Golden_Hurricane_football_team")
    True
    >>> names_other("2011-12 MiWay T20 Challenge", "/wiki/2011–12_MiWay_T20_Challenge")
    False
    >>> names_other("France", "/wiki/France")
    False
    >>> names_other("Vanuatu", "/wiki/Football_in_Vanuatu"), names_other("1967", "/wiki/1967_in_film")
    (True, True)
    >>> names_other("Colorado (2)", "/wiki/List_of_United_States_Senators_from_Colorado")
    True
    >>> names_other("St. Joan of Arc Turf Field", "/wiki/St._Joan_of_Arc_Catholic_High_School")
    True
    >>> names_other("Blanes HC", "/wiki/Blanes_Hoquei_Club"), names_other("AC Milan", "/wiki/A.C._Milan")
    (False, False)
    >>> names_other("William G. Thompson", "/wiki/William_George_Thompson")
    False
    >>> names_other("1998-99 1", "/wiki/1998–99_FIS_Cross-Country_World_Cup")
    True
    >>> names_other("10 (1972, 1976, 1980)", "/wiki/UEFA_Euro_1972")
    True
    >>> names_other("IMO number: 9781425", "/wiki/IMO_number")
    True
    """
    shown = " ".join(text.split())
    title = _fold(strip_disambiguator(title_from_id(link)))
    folded = _fold(shown)
    if not shown or title == folded:
        return False
    if folded.startswith(title) and folded[len(title) :].lstrip().startswith(":"):
        return True  # the link is the label of the value that follows: "IMO number: 9781425"
    if _AT_THE.search(title) and not _AT_THE.search(folded):
        return True
    if title.startswith("list of ") and not folded.startswith("list of "):
        return True  # "Colorado (2)" linking "List of United States Senators from Colorado"
    if title.endswith((f" in {folded}", f" in the {folded}")):
        return True  # "Vanuatu" linking "Football in Vanuatu": a topic in the place
    if re.match(r"^\d{4} in ", title) and " in " not in folded:
        return True  # "1967 (40th)" linking "1967 in film": the year's events, not the year
    if title.endswith(" season") and "season" not in folded:
        return True
    dated = _DATED.match(_dashes(title))
    if dated and dated.group(1) not in _dashes(folded):
        return True  # a season or edition page behind a team, a league or a placing
    extra = set(_content(title)) - set(_content(shown))
    if _SEASON.match(re.sub(r"\s+\d{1,2}$", "", shown)) and extra:
        return True  # "1998-99 1" (a footnote mark after the season) linking the season's cup
    if re.match(r"^\d+\s*\(", shown) and not re.match(r"^\d", title):
        return True  # "10 (1972, 1976, ...)": a count, linking one of the editions counted
    return _names_another_part(shown, link)


def _names_another_part(text: str, link: str) -> bool:
    """The cell and the page share a word but each has capitalised words of its own: the page
    is a neighbour of the cell's thing ("St. Joan of Arc Turf Field" linking the school it
    stands at), or the same thing by another name; either way the cell's text is the value.
    Initials of the page's words ("Blanes HC" for Blanes Hoquei Club) are the same name."""
    text_words = {w for w in _content(text) if not w.isdigit()}
    title = _title_words(link)
    if not text_words & title:
        return False  # "USA" for United States, "the Reds" for Liverpool: the rule above keeps it
    page = strip_disambiguator(title_from_id(link))
    if "".join(_words(text)) == "".join(_words(page)):
        return False  # "AC Milan" for A.C. Milan
    mine = [w for w in _WORD.findall(outside_parentheses(text)) if _fold(w) in text_words - title]
    theirs = [w for w in _content(page) if w not in text_words]
    if not theirs or not any(w[:1].isupper() for w in mine):
        return False
    initials = "".join(w[0] for w in theirs)
    # what only the cell says is initials of what only the page says: "William G. Thompson"
    # for William George Thompson, "Blanes HC" for Blanes Hoquei Club
    return not all(_fold(w) in initials for w in mine)


def is_placeholder(text: str, header: str = "") -> bool:
    """True for a cell that stands for no value: blank, ``-``, ``—``, ``N/A``, ``TBA``, ``?``,
    "not arranged" or "not awarded", or its column's own header (a "Website" column whose
    cells read "Website": the link text of an external link, which the table's export
    dropped)."""
    folded = _fold(" ".join(text.split())).strip(" .:*")
    if re.fullmatch(r"(?:not|never) (?:arranged|held|awarded|contested|presented)", folded):
        return True  # "not arranged": no winner that season
    return folded in BLANK_KEYS or (bool(header) and folded == _fold(" ".join(header.split())))


def mentions_only(cell: Cell) -> bool:
    """True when the cell's text is mostly not the names of its links: a phrase that mentions
    entities ("Scrapped at Jiangyin, 2009", "1886 Detroit, 1887 Detroit") is a text value, and
    its links are mentions, not the value.

    >>> mentions_only(Cell("Scrapped at Jiangyin in 2009 after a fire", ("/wiki/Jiangyin",)))
    True
    >>> mentions_only(Cell("Alfa Romeo", ("/wiki/Alfa_Romeo_in_Formula_One",)))
    False
    """
    words = [w for w in _words(cell.text) if w not in _STOP]
    if not cell.links or not words:
        return False
    named: set[str] = set()
    for link in cell.links:
        named.update(_words(strip_disambiguator(title_from_id(link))))
    covered = sum(1 for w in words if w in named)
    return 2 * covered < len(words)


def key_rejection(cell: Cell) -> str | None:
    """``summary_row`` or ``blank_key`` when a key cell holds no entity of the table, else None."""
    text = " ".join(cell.text.split()).strip()
    if not cell.links and is_placeholder(text):
        return "blank_key"
    # an unlinked name is counted without its original script and reading ("Ōsumi Kokubun-ji
    # and Miyatagaoka Tile Kiln Sites 大隅国分寺 跡附... Ōsumi Kokubunji ato ...": one site)
    if len(_words(text if cell.links else unlinked_name(text))) > MAX_KEY_WORDS:
        return "prose_key"  # a sentence or a track list names no one entity
    first = _fold(text).split()[0] if text else ""
    if (
        cell.links
        and first in SUMMARY_WORDS
        and not _fold(title_from_id(cell.links[0])).startswith(first)
    ):
        return "summary_row"  # "Total Berlin" linking Berlin: the sum of the rows above
    if cell.links:
        return None  # a linked cell names its entity ("Average White Band", "Total Drama")
    if first in PLACEHOLDER_STARTS:
        return "blank_key"
    words = _words(text)
    if words[:2] in (["grand", "total"], ["grand", "totals"]):
        return "summary_row"
    if words and words[0] in SUMMARY_WORDS and len(words) <= 3:
        return "summary_row"
    if words in (["all"], ["combined"], ["others"], ["other"]):
        return "summary_row"
    return None
