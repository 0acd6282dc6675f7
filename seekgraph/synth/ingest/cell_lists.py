"""Whether a table cell lists several things: names split by a separator or standing side by
side, a team run together in one cell, two names run on without a separator, or names joined
by a dash into one compound thing.

Rules (each tested in `tests/test_ingest_cells.py` on cells from several corpora):

- **One thing or several.** A cell with several named links lists several things only when its
  text says so: a separator outside parentheses (``,`` ``/`` ``&`` ``;`` `` and ``), or names
  that split the text between them (each link names its own words, together most of the text:
  ``Willie Davenport (USA) Leon Coleman (USA)``; not ``Chennai Southern side of the Madras
  University``, whose other words are a phrase). Otherwise the cell names one thing, the link
  that names most of its text (`one_thing`).
- **Names joined by a dash** (``Seattle - Tacoma``, ``Jordan - Mugen-Honda``) are one compound
  thing that no link names whole: an unlinked entity in a key cell, a text value elsewhere
  (`joins_names`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from seekgraph.synth.ingest.cells import (
    STOP_WORDS,
    WORD_PATTERN,
    content_words,
    fold_text,
    folded_words,
    link_title_words,
    outside_parentheses,
    reads_as_a_name,
    strip_disambiguator,
)
from seekgraph.synth.ingest.records import Cell, title_from_id

# what separates the things a cell lists ("A, B", "A / B", "A and B", "A y B")
LIST_SEPARATOR = re.compile(r",|/|&|;|\+|\n|\band\b|\bet\b|\by\b", re.IGNORECASE)


_DASH = re.compile(r"\s[-–—]\s")


def _covered(text: str, link: str) -> set[str]:
    title = link_title_words(link)
    return {w for w in content_words(text) if w in title}


def _spans(words: list[str], links: Sequence[str]) -> list[tuple[int, int]] | None:
    """Where each link's name stands in `words`, in order and without overlap (None when one
    is not there as a whole)."""
    spans: list[tuple[int, int]] = []
    cursor = 0
    for link in links:
        name = folded_words(strip_disambiguator(title_from_id(link)))
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
    >>> lists_several("Hydrogen fuel cell car", ["/wiki/Fuel_cell_car", "/wiki/Hydrogen_vehicle"])
    False
    >>> lists_several("Chennai Southern side of the Madras University",
    ...               ["/wiki/Chennai", "/wiki/University_of_Madras"])
    False
    """
    if len(links) < 2:
        return False
    outside = outside_parentheses(text)
    if LIST_SEPARATOR.search(outside):
        return True
    if _DASH.search(outside):
        return False
    words = folded_words(outside)
    spans = _spans(words, links)
    if spans is not None:
        covered = {i for a, b in spans for i in range(a, b)}
    else:  # names shortened in the text ("Monterrey" for C.F. Monterrey): words of their own
        covers = [{i for i, w in enumerate(words) if w in link_title_words(link)} for link in links]
        if not all(covers) or sum(map(len, covers)) != len(set().union(*covers)):
            return False
        shown_words = WORD_PATTERN.findall(outside)[1:]
        if any(w[:1].islower() and fold_text(w) not in STOP_WORDS for w in shown_words):
            return False  # "Hydrogen fuel cell car": one common noun whose words link two pages
        covered = set().union(*covers)
    shown = WORD_PATTERN.findall(outside)
    rest = [shown[i] for i, w in enumerate(words) if i not in covered and w not in STOP_WORDS]
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
    shown = WORD_PATTERN.findall(outside_parentheses(text))
    titled = set().union(*(link_title_words(link) for link in links))
    rest = [w for w in shown if fold_text(w) not in titled and fold_text(w) not in STOP_WORDS]
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
    shown = WORD_PATTERN.findall(outside_parentheses(text))
    titled = set().union(*(link_title_words(link) for link in links)) if links else set()
    rest = [w for w in shown if fold_text(w) not in titled and fold_text(w) not in STOP_WORDS]
    if len(rest) < 2 or not all(w[:1].isupper() for w in rest):
        return False
    if links:
        return names_group(text, links) or len(shown) >= 2 * max(usual_words, 2.0)
    return len(shown) >= max(4, 2 * usual_words) and not set(map(fold_text, shown)) & STOP_WORDS


def glued_value(text: str) -> bool:
    """Whether an unlinked value runs three or more people's names together with nothing
    between them ("Jack Lane Jim Milton Graham Tuck", a cross-country team): six or more
    capitalised words, no separator, no small word and no word of an organisation's or a
    place's name ("Bundaberg North State High School" is one school). Its names cannot be
    told apart, so a column mostly of such values is not asked.

    >>> glued_value("Kamel Guemar Attallah Djelloul Abdelhaziz Belhocine")
    True
    >>> glued_value("Inna Batuyeva , Denys Iasynskyi"), glued_value("Bundaberg North State High School")
    (False, False)
    """
    words = WORD_PATTERN.findall(outside_parentheses(text))
    folded = {fold_text(w) for w in words}
    return (
        len(words) >= 6
        and not LIST_SEPARATOR.search(text)
        and all(w[:1].isupper() for w in words)
        and not folded & (STOP_WORDS | _PART_WORDS)
    )


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
    title = link_title_words(link)
    seen: set[str] = set()
    cut = 0
    while cut < len(tokens) and seen != title:
        words = folded_words(tokens[cut])
        if not words or not set(words) <= title:
            return ""
        seen.update(words)
        cut += 1
    rest = tokens[cut:]
    if seen != title or not reads_as_a_name(rest):
        return ""
    for token in rest:
        words = folded_words(token)
        if not re.fullmatch(r"[^\W\d_][\w'’.-]*", token):
            return ""
        if set(words) & (STOP_WORDS | _PART_WORDS | title):
            return ""
    return " ".join(rest)


def glued_before(text: str, link: str) -> str:
    """The unlinked name an attribute cell runs into its linked one, when the two share their
    head noun ("Island line South Island line" linking the South Island line: two lines;
    "American Basketball Association Florida Basketball Association": two leagues); "" when the
    cell names one thing.

    >>> glued_before("Island line South Island line", "/wiki/South_Island_line")
    'Island line'
    >>> glued_before("American Basketball Association Florida Basketball Association",
    ...     "/wiki/Florida_Basketball_Association")
    'American Basketball Association'
    >>> glued_before("Greater Florida Basketball Association", "/wiki/Florida_Basketball_Association")
    ''
    """
    tokens = text.split()
    title = strip_disambiguator(title_from_id(link)).split()
    if len(title) < 2 or len(tokens) < len(title) + 2 or not tokens[0][:1].isupper():
        return ""
    if [fold_text(t) for t in tokens[-len(title) :]] != [fold_text(t) for t in title]:
        return ""
    before = tokens[: -len(title)]
    if fold_text(before[-1]) != fold_text(title[-1]) or any(mark in text for mark in "(,:/"):
        return ""
    return " ".join(before)


def whole_folded(text: str) -> str:
    """A cell's text as `column_words` holds it: folded, its spaces collapsed."""
    return " ".join(fold_text(text).split())


def column_words(texts: Iterable[str]) -> set[str]:
    """The folded whole texts of a column's short cells (one to four words): what its cells
    name one at a time."""
    return {whole_folded(t) for t in texts if 1 <= len(t.split()) <= 4}


def runs_together(text: str, words: set[str]) -> list[str]:
    """The cells of its column a text cell runs together with no separator, each written whole
    in another row (`words`, `column_words` less the cell's own text) and starting with a
    capital or a digit, as many as it can be read into, when there are at least two; []
    otherwise: "France Italy West Germany" in a column of "France", "Italy" and "West Germany"
    lists three countries, while "Crime drama" is one genre.

    >>> runs_together("France Italy West Germany", {"france", "italy", "west germany"})
    ['France', 'Italy', 'West Germany']
    >>> runs_together("France Italy West Germany", {"france italy", "france", "italy", "west germany"})
    ['France', 'Italy', 'West Germany']
    >>> runs_together("Crime drama", {"crime", "drama"}), runs_together("Drama, romance", {"drama"})
    ([], [])
    """
    if re.search(r"[,;/&+()]| and ", text):
        return []  # a list already said, or an aside
    tokens = text.split()
    found: list[list[str] | None] = [None] * (len(tokens) + 1)
    found[0] = []
    for i in range(len(tokens)):
        done = found[i]
        if done is None or not (tokens[i][:1].isupper() or tokens[i][:1].isdigit()):
            continue
        for j in range(i + 1, min(len(tokens), i + 4) + 1):
            part = " ".join(tokens[i:j])
            longer = found[j] is None or len(found[j] or []) < len(done) + 1
            if longer and whole_folded(part) in words:
                found[j] = [*done, part]
    parts = found[len(tokens)]
    return parts if parts and len(parts) >= 2 else []


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
    parts = [p for p in _JOIN.split(outside_parentheses(text)) if content_words(p)]
    if len(parts) < 2 or not links:
        return False
    if not all(any(w[:1].isupper() for w in WORD_PATTERN.findall(p)) for p in parts):
        return False  # a range or a result ("1990 - present", "won - 3 sets"), not names
    return not any(
        all(set(content_words(p)) & link_title_words(link) for p in parts) for link in links
    )


def one_thing(text: str, links: Sequence[str]) -> str:
    """The link that names most of the cell's text (the first on a tie)."""
    outside = outside_parentheses(text) if folded_words(outside_parentheses(text)) else text
    return max(links, key=lambda link: (len(_covered(outside, link)), -links.index(link)))


def listed_links(cell: Cell, named: tuple[str, ...]) -> tuple[str, ...]:
    """`named` as the entities the cell lists: all of them when it lists several things,
    else the one that names its text."""
    titles = {link: set(folded_words(strip_disambiguator(title_from_id(link)))) for link in named}
    # "Prince Leopold, Duke of Albany" links the prince and his title "Duke of Albany": a link
    # whose name is part of another's is that name's part, not a second thing
    named = tuple(
        link for link in named if not any(titles[link] < titles[o] for o in named if o != link)
    )
    if len(named) < 2 or lists_several(cell.text, named):
        return named
    return (one_thing(cell.text, named),)
