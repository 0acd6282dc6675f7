"""Which of a table cell's links name what it says: a link beside the cell's name is an icon,
a link inside a phrase is a mention, and a link to a page about something else (a season, an
event, a neighbour) holds the cell's text, not the page.

Rules (each tested in `tests/test_ingest_cells.py` on cells from several corpora):

- **Icon links.** A cell such as ``[flag] Pelé`` links both ``/wiki/Brazil`` and ``/wiki/Pelé``;
  the flag is not what the cell names. A link is *named* by the cell when a content word of its
  title (disambiguator dropped) occurs in the cell text, or when the text is its initials
  (``UK`` → United Kingdom). When some links of a cell are named, the others are icons and are
  dropped; a cell whose single link is not named keeps it (``the Reds`` → Liverpool F.C.).
- **A link that names something else.** A cell ``2007–08`` linking ``2007–08 Liga de Honra``,
  ``Brazil`` linking ``Brazil at the 1979 Pan American Games`` or ``Minnesota Vikings`` linking
  ``2011 Minnesota Vikings season``, or any page whose title starts with a year or season the
  cell does not show (``Tulsa`` linking ``1969 Tulsa Golden Hurricane football team``, ``19th in
  Segunda División`` linking the league's season), or a page sharing only some of the cell's
  words (``St. Joan of Arc Turf Field`` linking the school), holds the cell's text, not the page
  (`names_other`).
- **Mentions.** An attribute cell whose words are mostly not its links' names ("Scrapped at
  Jiangyin in 2009") is a text value; its links are mentions (`mentions_only`).

>>> named_links(Cell("Pelé", ("/wiki/Brazil", "/wiki/Pelé")))
('/wiki/Pelé',)
"""

from __future__ import annotations

import re

from seekgraph.synth.ingest.cells import (
    STOP_WORDS,
    WORD_PATTERN,
    content_words,
    fold_text,
    folded_words,
    link_title_words,
    outside_parentheses,
    strip_disambiguator,
)
from seekgraph.synth.ingest.records import Cell, title_from_id


def names_link(text: str, link: str) -> bool:
    """True when the cell text names the link's target (a content word, or its initials)."""
    title_words = [
        w for w in folded_words(strip_disambiguator(title_from_id(link))) if w not in STOP_WORDS
    ]
    text_words = set(folded_words(text))
    if not title_words:
        return True
    if any(w in text_words for w in title_words):
        return True
    initials = "".join(w[0] for w in title_words)
    compact = "".join(folded_words(text))
    return len(initials) >= 2 and compact == initials


def named_links(cell: Cell) -> tuple[str, ...]:
    """The links the cell names, in order; icon links beside named ones are dropped."""
    if len(cell.links) <= 1 or not cell.text.strip():
        return cell.links
    named = tuple(link for link in cell.links if names_link(cell.text, link))
    return named or cell.links


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
    title = fold_text(strip_disambiguator(title_from_id(link)))
    folded = fold_text(shown)
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
    extra = set(content_words(title)) - set(content_words(shown))
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
    text_words = {w for w in content_words(text) if not w.isdigit()}
    title = link_title_words(link)
    if not text_words & title:
        return False  # "USA" for United States, "the Reds" for Liverpool: the rule above keeps it
    page = strip_disambiguator(title_from_id(link))
    if "".join(folded_words(text)) == "".join(folded_words(page)):
        return False  # "AC Milan" for A.C. Milan
    mine = [
        w
        for w in WORD_PATTERN.findall(outside_parentheses(text))
        if fold_text(w) in text_words - title
    ]
    theirs = [w for w in content_words(page) if w not in text_words]
    if not theirs or not any(w[:1].isupper() for w in mine):
        return False
    initials = "".join(w[0] for w in theirs)
    # what only the cell says is initials of what only the page says: "William G. Thompson"
    # for William George Thompson, "Blanes HC" for Blanes Hoquei Club
    return not all(fold_text(w) in initials for w in mine)


# the end of a sentence and the start of the next ("... Division . This individual ..."): a
# word of four letters or more before the stop, so "St. Louis" and "Inc. Records" are no break
_SENTENCE_BREAK = re.compile(
    r"\b(?!(?:Bros|Corp|Capt|Blvd|Sept|Govt|Dept|Univ|Assn)\b)[A-Za-z][a-z]{3,}\s?\.\s+[A-Z][a-z]"
)


def mentions_only(cell: Cell) -> bool:
    """True when the cell's text is mostly not the names of its links: a phrase that mentions
    entities ("Scrapped at Jiangyin, 2009", "1886 Detroit, 1887 Detroit") is a text value, and
    its links are mentions, not the value.

    >>> mentions_only(Cell("Scrapped at Jiangyin in 2009 after a fire", ("/wiki/Jiangyin",)))
    True
    >>> mentions_only(Cell("Alfa Romeo", ("/wiki/Alfa_Romeo_in_Formula_One",)))
    False
    >>> mentions_only(Cell("Vice President for University Relations and Communications at the "
    ...     "University of the District of Columbia", ("/wiki/University_of_the_District_of_Columbia",)))
    True

    Two sentences are prose whatever they name ("... in the CFL West Division . This individual
    becomes one of the two finalists for the CFL 's Most Outstanding Rookie Award"):

    >>> mentions_only(Cell("Best rookie in the CFL West Division . This player becomes a "
    ...     "finalist for the CFL 's Most Outstanding Rookie Award",
    ...     ("/wiki/Canadian_Football_League_West_Division",
    ...      "/wiki/CFL's_Most_Outstanding_Rookie_Award")))
    True
    """
    words = [w for w in folded_words(cell.text) if w not in STOP_WORDS]
    if not cell.links or not words:
        return False
    if len(words) >= 8 and _SENTENCE_BREAK.search(cell.text):
        return True
    named: set[str] = set()
    for link in cell.links:
        named.update(folded_words(strip_disambiguator(title_from_id(link))))
    distinct = set(words)  # "University ... at the University of X": one word, once
    covered = sum(1 for w in distinct if w in named)
    return 2 * covered < len(distinct)
