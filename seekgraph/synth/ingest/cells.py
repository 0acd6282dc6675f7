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


def unlinked_name(text: str) -> str:
    """The name of an unlinked key cell: list numbers and trailing parentheses dropped
    (``10- Hung Hing Ying Building (1919)`` → ``Hung Hing Ying Building``)."""
    return strip_disambiguator(_ENUMERATION.sub("", text)).strip() or text.strip()


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


def key_links(cell: Cell) -> tuple[str, ...]:
    """The entities a key cell lists: its named links, without those it names only in
    parentheses (``Back at One (with Lulu)`` lists the song, not Lulu). When every link is in
    parentheses and text stands outside them (``Sharpshooters (Cass Phang)``), the cell lists
    that unlinked text: the result is empty and the row gets an unlinked entity."""
    named = named_links(cell)
    if not named:
        return named
    outside = outside_parentheses(cell.text)
    main = tuple(link for link in named if names_link(outside, link))
    if main:
        return main
    return () if _words(outside) else named


def is_placeholder(text: str) -> bool:
    """True for a cell that stands for no value: blank, ``-``, ``—``, ``N/A``, ``TBA``, ``?``."""
    return _fold(" ".join(text.split())).strip(" .:*") in BLANK_KEYS


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
    if len(_words(text)) > MAX_KEY_WORDS:
        return "prose_key"  # a sentence or a track list names no one entity
    if cell.links:
        return None  # a linked cell names its entity ("Average White Band")
    first = _fold(text).split()[0] if text else ""
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
