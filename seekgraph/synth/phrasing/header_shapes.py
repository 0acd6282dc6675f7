"""Header shapes `seekgraph.synth.phrasing.attributes.phrase_attribute` reads apart, and the
`Phrase` it answers with.

Each reading takes a whole header and says how a person says it or why it cannot be asked: an
"A / B" header (one thing named two ways, or two facts in one column), a participle with a
subject of its own ("Year club founded"), a column of census or estimate counts, a plural noun
of counts ("Floors: 84"); `recased` gives a phrase built from a header the capitals the header
kept. Each is one rule with its own examples, apart from the run of header words
`phrase_attribute` checks in order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from seekgraph.synth.phrasing.attribute_words import (
    ACTIVE,
    ADVERBS,
    AMOUNTS,
    COUNT_NOUNS,
    NOTE_WORDS,
    SPELLED_UNITS,
    WHERE_PARTICIPLES,
)
from seekgraph.synth.phrasing.headers import UNIT_WORDS
from seekgraph.synth.phrasing.value_shapes import sequence
from seekgraph.synth.phrasing.words import participle, plural, singular, values_are

# "A / B" headers a person reads as one thing named two ways ("Town/City", "Teams/Clubs",
# "Class / type"): both heads in one group. Any other pair is two facts in one column
# ("Year/Degree", "Nationality/profession", "Guests/Segments"): not asked.
_ALTERNATIVES = tuple(
    frozenset(group.split())
    for group in (
        "town city suburb village area state country province region district county "
        "municipality location place territory prefecture locality parish island nation "
        "neighborhood neighbourhood canton regency range",
        "school club team college university nation franchise province",
        "league division conference competition tournament",
        "class type category model variant kind style genre",
        "sculptor designer artist architect composer lyricist author compiler writer "
        "manufacturer publisher developer builder",
        "album single song film movie",
        "division unit regiment brigade",
        "party coalition alliance group",
        "seat capital",
        "denomination affiliation religion",
        "position role",
        "name title",
    )
)


@dataclass(frozen=True)
class Phrase:
    """An attribute as a question asks for it (`text`), or why it cannot be asked (`reason`:
    ``abbreviation``, ``preposition``, ``determiner``, ``symbols``, ``no_words``, ``notes``,
    ``verb``, ``relative`` (a gap to another row), ``flag`` (yes or no), ``vague`` ("Dates":
    of what?), ``merged`` (several header rows run together) or ``no_noun`` (a cut header))."""

    text: str = ""
    reason: str = ""


def alternatives_phrase(tokens: list[str]) -> Phrase | None:
    """Why an "A / B" header cannot be asked (notes on either side; two facts in one column),
    or None when it can (no slash, one thing named two ways, or a measure in two units).

    >>> alternatives_phrase("Year / Degree".split()).reason, alternatives_phrase("Town / City".split())
    ('merged', None)
    >>> alternatives_phrase("Notes / Mission".split()).reason, alternatives_phrase("Height metres / feet".split())
    ('notes', None)
    """
    if "/" not in tokens:
        return None
    parts: list[list[str]] = [[]]
    for token in tokens:
        if token == "/":
            parts.append([])
        else:
            parts[-1].append(token.lower())
    if any(len(part) == 1 and len(part[0]) <= 2 for part in parts):
        return None  # "h / a": abbreviations, said as such later
    if any(set(part) & NOTE_WORDS for part in parts):
        return Phrase(reason="notes")  # "Notes/Mission", "Fee/Notes"
    heads = {singular(part[-1]) for part in parts if part}
    if all(part and part[-1] in SPELLED_UNITS for part in parts[1:]):
        return None  # "Height metres / feet": the units are cut later
    if len(heads) < 2 or any(heads <= group for group in _ALTERNATIVES):
        return None
    return Phrase(reason="merged")


def subject_of_participle(out: list[str], kinds: set[str]) -> Phrase | None:
    """A header whose participle has a subject of its own ("Current route formed", "Year club
    founded"): said of that subject when its values date it ("the year the current route was
    formed"), not asked otherwise; None when the header is no such phrase ("Date first opened"
    is the row's own opening, "Year granted or confirmed" two of the row's own).

    >>> subject_of_participle(["Year", "club", "founded"], {"year"}).text
    'the year the club was founded'
    >>> subject_of_participle(["Year", "granted", "or", "confirmed"], {"year"}) is None
    True
    """
    lowered = [w.lower() for w in out]
    unit = lowered[0] if lowered[0] in ("year", "date") else ""
    rest = lowered[1:] if unit else lowered
    if len(rest) < 2 or not participle(rest[-1], bool(unit)) or rest[-1] in ACTIVE:
        return None
    nouns = rest[:-1]
    if rest[-1] in WHERE_PARTICIPLES or all(w in ADVERBS or w.endswith("ly") for w in nouns):
        return None
    if {"or", "and"} & set(nouns):
        return None  # "Year granted or confirmed": two participles of the row, no subject
    if not kinds & {"year", "date"}:
        return Phrase(reason="verb")  # "Current route formed: Interstate 5": of what?
    be = "were" if nouns[-1].endswith("s") and not nouns[-1].endswith("ss") else "was"
    when = unit or ("date" if "date" in kinds else "year")
    return Phrase(f"the {when} the {' '.join(nouns)} {be} {rest[-1]}")


def population_phrase(lowered: list[str], kinds: set[str]) -> str:
    """'their population in the 2010 census' or 'their estimated population in 2017' for a
    column of counts headed by a census or an estimate (a city's "2010 Census: 1,327,407");
    '' for any other header.

    >>> population_phrase(["2010", "census"], {"number"}), population_phrase(["2017", "estimates"], {"number"})
    ('their population in the 2010 census', 'their estimated population in 2017')
    """
    if not values_are(kinds, {"number"}):
        return ""
    years = [w for w in lowered if re.fullmatch(r"1[5-9]\d\d|20\d\d", w)]
    rest = [w for w in lowered if w not in years and w not in ("in", "the")]
    if len(years) > 1:
        return ""
    year = years[0] if years else ""
    if rest in (["census"], ["population", "census"]):  # "Population 2010 Census"
        return f"their population in the {year} census" if year else "their census population"
    if rest in (["estimate"], ["estimates"], ["estimated"], ["population", "estimate"]):
        return f"their estimated population in {year}" if year else "their estimated population"
    return ""


# a count: "84", "1,327,407", "14,347.061" (thousands set off by dots), "45 (1, 44)"
_COUNT = re.compile(r"^(?:\d[\d,]*|\d{1,3}(?:[.,]\d{3})+)(?:\s*\(.*\))?$")


def recased(phrase: str, said: list[str]) -> str:
    """`phrase` with the words the header kept in capitals given back their capitals ("the
    number of South Asians": `seekgraph.synth.phrasing.headers.header_words` lowers only words
    that are capitalised as title case, not names)."""
    kept = {w.lower(): w for w in said if w != w.lower()}
    return " ".join(kept.get(w, w) for w in phrase.split())


def counted_phrase(lowered: list[str], kinds: set[str], texts: list[str]) -> str:
    """'the number of floors' for a plural noun of counts ("Floors: 84", "Beds available: 37",
    "Women's premierships: 2", "Games: 45 (1, 44)"); '' for any other header."""
    counts = sum(bool(_COUNT.match(t.strip())) for t in texts)
    if not kinds or not kinds <= {"number", "text"} or not texts or 5 * counts < 4 * len(texts):
        return ""  # "Members: 11 (11/none)" is a count too, typed as text
    if "in" in lowered or "of" in lowered:
        return ""
    words = lowered[:-1] if len(lowered) >= 2 and lowered[-1] == "available" else lowered
    if len(words) <= 2 and words[-1] in COUNT_NOUNS and not sequence(texts):
        words = [*words[:-1], plural(words[-1])]  # "Goal: 13" of a player: his goals
        lowered = words
    last = words[-1]
    if len(words) > 3 or not re.fullmatch(r"[a-z'’-]{3,}s", last) or last.endswith("ss"):
        return ""
    if last in UNIT_WORDS | SPELLED_UNITS | AMOUNTS:
        return ""
    if lowered[0] == "total" and len(lowered) >= 2:
        return f"the total number of {' '.join(lowered[1:])}"  # "Total passengers"
    return f"the number of {' '.join(lowered)}"
