"""The kind of entity a table lists, named from its key column's header or its title.

A question names what it asks for ("Which guests ...") before any page is read, so the kind
comes from the table itself: the key column's header (singular and plural), or, when it is
generic ("Name", "Title", "#"), the head noun of the table's title. `seekgraph.synth.kinds`
then checks that kind against what the answers' own pages say they are.

>>> entity_kind("Guests", "List of Top Gear guests")
('guest', 'guests')
"""

from __future__ import annotations

import re

from seekgraph.common.text import word_set
from seekgraph.synth.phrasing.words import (
    PREPOSITIONS,
    WORD,
    lower_word,
    participle,
    plural,
    singular,
    tidy,
)

GENERIC = frozenset(
    [
        "name",
        "names",
        "title",
        "titles",
        "entry",
        "entries",
        "no",
        "number",
        "item",
        "items",
        "#",
        "rank",
        "pos",
        "position",
        "details",
        "detail",
        "type",  # "Type" of a list of RNAs: types of what? the title or the pages say
        "types",
        "notes",
        "note",
        "description",
        "info",
        "information",
        "remarks",
    ]
)
# words that name a row's thing only relative to another ("Predecessor" of whom?): a question
# says what the answers are ("Which people ..."), from their pages, not "Which predecessors"
_RELATIVE = frozenset(
    ["predecessor", "successor", "opponent", "partner", "spouse", "replacement", "vacator"]
)
# words that say which of a thing's names a column gives, not what the thing is: "Scientific
# name", "Common name", "English name" list species and places, not "scientifics"
# (words in -al, -ic, -ous, -ive are caught by `_adjective`)
_NAME_ADJECTIVES = word_set(
    """common english french german spanish italian latin greek japanese chinese korean russian
    hebrew irish welsh scottish hindi full real stage given family first last middle alternate
    other vernacular short long current former birth maiden proper popular trade working
    romanized transliterated simplified modern old new present previous"""
)
# how adjectives end ("Cardinalatial", "Historic", "Religious", "Alternative"), and nouns that
# end so ("Festival name" names festivals)
_ADJECTIVE_END = re.compile(r"(?:al|ic|ous|ive)$", re.IGNORECASE)
_NOUNS_LIKE_ADJECTIVES = word_set(
    """festival hospital journal canal terminal animal cathedral capital clinic comic tribunal
    portal mural rival memorial arsenal carnival manual signal principal arrival detective
    executive representative relative periodical"""
)


def _adjective(word: str) -> bool:
    """Whether a header word before "name" or "title" reads as an adjective.

    >>> _adjective("Cardinalatial"), _adjective("Festival"), _adjective("Player")
    (True, False, False)
    """
    low = word.lower()
    return bool(_ADJECTIVE_END.search(low)) and low not in _NOUNS_LIKE_ADJECTIVES


# the kind of a table whose entities have no common kind: never written into a question
GENERIC_KIND = ("entry", "entries")
_ORDINAL = re.compile(r"^\d+(st|nd|rd|th)$", re.IGNORECASE)  # "1st", "3rd": a place, not a kind
_TITLE_HEAD = re.compile(
    r"^(?:list|lists|table|index|outline)\s+of\s+(?:the\s+)?(.+?)"
    r"(?:\s+(?:in|of|by|from|for|with|at|on|to|during|since|who|that)\s+.*)?$",
    re.IGNORECASE,
)


def _head_noun(text: str) -> str:
    words = [w for w in WORD.findall(text) if not w.isdigit()]
    return words[-1] if words else ""


def key_kind(key_header: str | None, title: str | None) -> tuple[str, str]:
    """The kind the key column's header names (`entity_kind`), none when the header repeats
    the article's title: "Miss Teen USA" over the titleholders of the "Miss Teen USA" article
    names the title they hold, not what they are (the section or the pages say that).

    >>> key_kind("Miss Teen USA", "Miss Teen USA"), key_kind("Flag bearer", "Ireland")
    (('entry', 'entries'), ('flag bearer', 'flag bearers'))
    """
    if key_header and title and tidy(key_header).casefold() == tidy(title).casefold():
        return GENERIC_KIND
    return entity_kind(key_header, None)


def entity_kind(key_header: str | None, title: str | None) -> tuple[str, str]:
    """(singular, plural) of what the table lists: its key header, or its title's head noun.

    A longer header is cut before its first preposition or participle ("Film title used in
    nomination" → film title), and a trailing "name" or "title" says which of its names the
    column gives (a film). A relative word ("Predecessor") names no kind.

    >>> entity_kind("Film title used in nomination", None), entity_kind("Predecessor", None)
    (('film', 'films'), ('entry', 'entries'))
    """
    bare = re.sub(r"\([^)]*\)|\[[^\]]*\]", " ", tidy(key_header or ""))
    bare = re.sub(r"\s*['’]\s*s\s+(?=names?\b)", " ", bare)  # "Victim's name": the victim
    parts = [p for p in re.split(r"\s+(?:or|and|&)\s+|\s*/\s*", bare) if WORD.search(p)]
    if len(parts) > 1:
        kinds = [entity_kind(part, None) for part in parts]
        if all(k != ("entry", "entries") for k in kinds):
            return " or ".join(k[0] for k in kinds), " or ".join(k[1] for k in kinds)
    words = [w for w in WORD.findall(bare) if not w.isdigit() and not _ORDINAL.match(w)]
    of = [i for i, w in enumerate(words) if w.lower() == "of"]
    if of and words[0].lower() in GENERIC and of[0] + 1 < len(words):
        words = words[of[0] + 1 :]  # "Name of school" -> "school"
    cut = [
        i
        for i, w in enumerate(words)
        if i > 0 and (w.lower() in PREPOSITIONS or participle(w, True)) and w.lower() != "of"
    ]
    if cut and len(words) > 2:
        words = words[: cut[0]]
    named = [i for i, w in enumerate(words) if w.lower() in ("name", "names")]
    if named and 0 < named[0] < len(words) - 1:
        words = words[: named[0]]  # "Airport name Type": two header rows, the first names
    while len(words) > 1 and words[-1].lower() in ("name", "names", "title", "titles"):
        words = words[:-1]  # "Landmark name" -> "landmark", "Recording title" -> "recording"
        if all(w.lower() in _NAME_ADJECTIVES or _adjective(w) for w in words):
            words = []  # "Scientific name", "Cardinalatial title": which name, not what
    if len(words) == 1 and participle(words[0], True):
        words = []  # "Based", "Listed": a column about the entries, not their kind
    header = " ".join(words)
    if header and header.lower() not in GENERIC and singular(header.lower()) not in _RELATIVE:
        words = header.split()
        last = words[-1]
        abbreviation = last.isupper() and len(last) <= 4
        head = last if abbreviation else singular(last)
        heads = last if abbreviation else plural(head)
        modifiers = " ".join(lower_word(w) for w in words[:-1] if not w.isdigit())
        base = f"{modifiers} {head}".strip() if len(words) <= 3 else head
        return base, f"{modifiers} {heads}".strip() if len(words) <= 3 else heads
    if header.lower() in ("title", "titles"):
        return "title", "titles"  # a filmography's "Title" column lists titles
    match = _TITLE_HEAD.match((title or "").strip())
    if match:
        head = _head_noun(match.group(1))
        if head:
            return singular(head), plural(head)
    return GENERIC_KIND
