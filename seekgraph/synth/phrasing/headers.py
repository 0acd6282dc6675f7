"""A table header as words of a sentence: the debris of a header (footnote marks, stars,
brackets, stray punctuation, title case) removed, a unit in brackets said in words.

Headers are written for tables, not sentences ("FIFA Ranking [a]", "Distance ( km )", "Pos.");
a question calls a relation by its cleaned header when that has words (`label`), else by the
relation's name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from seekgraph.synth.phrasing.words import lower_word, plural, relation_words, tidy

UNIT_WORDS = frozenset(
    [
        "km",
        "mi",
        "m",
        "km²",
        "km2",
        "mi²",
        "mi2",
        "m²",
        "m2",
        "sq",
        "ha",
        "ft",
        "cm",
        "mm",
        "kg",
        "lb",
        "lbs",
        "t",
        "kw",
        "mw",
        "gw",
        "hp",
        "mph",
        "km/h",
        "usd",
        "eur",
        "gbp",
        "€",
        "$",
        "£",
        "%",
        "million",
        "billion",
        "millions",
        "billions",
        "thousands",
    ]
)


# units a header writes out in its brackets ("Area ( acres )", "Frequency width ( MHz )"): the
# unit of its numbers, said after the noun as the abbreviations are
_SPELLED_IN_BRACKETS = frozenset(
    ["acres", "acre", "hectares", "mhz", "ghz", "khz", "metres", "meters", "feet", "miles"]
)

_UNIT_NAMES = {
    "km": "kilometres",
    "mi": "miles",
    "km²": "square kilometres",
    "km2": "square kilometres",
    "sq km": "square kilometres",
    "mi²": "square miles",
    "mi2": "square miles",
    "sq mi": "square miles",
    "m²": "square metres",
    "m2": "square metres",
    "ha": "hectares",
    "m": "metres",
    "ft": "feet",
    "cm": "centimetres",
    "mm": "millimetres",
    "kg": "kilograms",
    "lb": "pounds",
    "lbs": "pounds",
    "usd": "US dollars",
    "%": "percent",
    "€ million": "millions of euros",
    "$ million": "millions of dollars",
    "£ million": "millions of pounds",
    "usd million": "millions of US dollars",
    "million": "millions",
    "mph": "miles per hour",
    "km/h": "kilometres per hour",
    "kw": "kilowatts",
    "mw": "megawatts",
    "gw": "gigawatts",
    "hp": "horsepower",
    "t": "tonnes",
}


# months keep their capitals ("December ranking" of a draft's prospects)
MONTHS = frozenset(
    [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ]
)
# a compass word before a people's name is part of it ("South Asians", "North American")
_COMPASS = frozenset(["North", "South", "East", "West", "Central"])
# Proper adjectives a header may start with ("Greek name", "Korean title") and the members of
# the parties a count column names ("Democrats"): kept capitalised.
DEMONYMS = frozenset(
    [
        *["Breton", "Basque", "Cornish", "Manx", "Frisian", "Galician", "Sami", "Tibetan"],
        *["Uyghur", "Kurdish", "Hawaiian", "Maori", "Māori"],
        *["Kazakh", "Uzbek", "Kyrgyz", "Tajik", "Turkmen", "Mongolian", "Armenian", "Georgian"],
        *["Azerbaijani", "Belarusian", "Macedonian", "Bosnian", "Maltese", "Nepali", "Bengali"],
        *["Punjabi", "Sinhala", "Burmese", "Khmer", "Tagalog", "Swahili", "Afrikaans", "Yiddish"],
        *["Sanskrit", "Marathi", "Gujarati", "Kannada", "Malayalam", "Cantonese", "Mandarin"],
        *["Taiwanese", "Malaysian", "Pakistani", "Faroese", "Luxembourgish", "Esperanto"],
        "Afghan",
        "African",
        "Albanian",
        "American",
        "Arabic",
        "Argentine",
        "Asian",
        "Australian",
        "Austrian",
        "Belgian",
        "Brazilian",
        "British",
        "Bulgarian",
        "Canadian",
        "Catalan",
        "Chinese",
        "Croatian",
        "Czech",
        "Danish",
        "Democrat",
        "Dutch",
        "Egyptian",
        "English",
        "Estonian",
        "European",
        "Filipino",
        "Finnish",
        "French",
        "Gaelic",
        "German",
        "Greek",
        "Hebrew",
        "Hindi",
        "Hungarian",
        "Icelandic",
        "Indian",
        "Indonesian",
        "Iranian",
        "Irish",
        "Israeli",
        "Italian",
        "Japanese",
        "Korean",
        "Latin",
        "Latvian",
        "Lithuanian",
        "Malay",
        "Mexican",
        "Norwegian",
        "Persian",
        "Polish",
        "Portuguese",
        "Republican",
        "Romanian",
        "Russian",
        "Scottish",
        "Serbian",
        "Slovak",
        "Slovene",
        "Slovenian",
        "Spanish",
        "Swedish",
        "Swiss",
        "Tamil",
        "Telugu",
        "Thai",
        "Turkish",
        "Ukrainian",
        "Urdu",
        "Vietnamese",
        "Welsh",
    ]
)


# where a date, a sale or a chart place was: a header ending in one ("Release date Europe",
# "Release date N. America") says it of that place
_REGIONS = {
    "europe": "Europe",
    "n america": "North America",
    "north america": "North America",
    "s america": "South America",
    "south america": "South America",
    "japan": "Japan",
    "australia": "Australia",
    "asia": "Asia",
    "uk": "the UK",
    "us": "the US",
    "usa": "the US",
    "canada": "Canada",
}
# what may come before the region: the thing dated, sold or charted there
_BEFORE_REGION = re.compile(
    r"^(.*\b(?:date|dates|release|released|sales|peak|chart|premiere|gross))\s+(.+)$",
    re.IGNORECASE,
)


def _fold_region(text: str) -> str:
    """A region's name as `_REGIONS` keys it ("N. America" → "n america")."""
    return " ".join(re.sub(r"\.", " ", text.lower()).split())


def header_words(header: str, keep: Iterable[str] = ()) -> str:
    """A table header as words of a sentence: footnotes, stars and other brackets dropped, a
    unit in brackets kept as "in <unit>", newlines and stray marks removed, title-case words
    lowered, acronyms and names kept (``"FIFA Ranking [a]"`` → ``"FIFA ranking"``,
    ``"Distance ( km )"`` → ``"distance in km"``).

    >>> header_words("Sales ( in millions )")
    'sales in millions'

    An area in a unit of length lost its square sign (``"Area ( km )"``, as OTT-QA writes
    ``km²``): it is in square units.

    >>> header_words("Area ( km )")
    'area in square kilometres'
    >>> header_words("Area ( km² )"), header_words("Area ( sq mi )"), header_words("Surface ( km )")
    ('area in square kilometres', 'area in square miles', 'surface area in square kilometres')

    A word broken across two lines of the header comes back whole ("Con- gress"), and a
    people's name in the plural keeps its capital ("South Asians").

    >>> header_words("Con- gress"), header_words("South Asians"), header_words("Pre- and post-war")
    ('congress', 'South Asians', 'pre- and post-war')

    A date, a sale or a chart place followed by a region is of that region.

    >>> header_words("Release date Europe"), header_words("Release date N. America")
    ('release date in Europe', 'release date in North America')

    A month is a name: ``"December Ranking"`` → ``"December ranking"``.

    A header that says a row may hold one or more ("Song ( s )", "Creator/s") is said in the
    plural.

    >>> header_words("Song ( s )"), header_words("Creator/s"), header_words("Co-singer ( s )")
    ('songs', 'creators', 'co-singers')
    >>> header_words("Area ( acres )"), header_words("Frequency width ( MHz )")
    ('area in acres', 'frequency width in MHz')
    >>> header_words("Korean-Americans"), header_words("Pre-war")
    ('Korean-Americans', 'pre-war')
    """

    def bracket(match: re.Match[str]) -> str:
        inner = " ".join(match.group(0)[1:-1].split())
        inner = inner[3:] if inner.lower().startswith("in ") else inner  # "( in millions )"
        units = UNIT_WORDS | _SPELLED_IN_BRACKETS
        if inner and all(w.lower().strip(".") in units for w in inner.split()):
            return f" in {_UNIT_NAMES.get(inner.lower(), inner)} "
        return " "

    text = tidy(" ".join((header or "").split()))
    text = re.sub(
        r"\b([^\W\d_]+)- ([^\W\d_]+)\b",
        lambda m: m[0] if m[2] in ("and", "or", "to") or not m[2].islower() else m[1] + m[2],
        text,
    )
    # "Song ( s )", "Creator/s": one or more, said as more ("their songs")
    text = re.sub(r"([^\W\d_]+)\s*(?:\(\s*s\s*\)|/s\b)", lambda m: plural(m[1]), text)
    bare = re.sub(r"\([^)]*\)|\[[^\]]*\]", bracket, text)
    bare = re.sub(r"(?i)\b(area\s+in)\s+(kilometres|miles|metres)\b", r"\1 square \2", bare)
    # "Surface ( km )" of provinces: their surface area, in square units
    bare = re.sub(
        r"(?i)^\s*surface(?:\s+area)?\s+in\s+(kilometres|miles|metres)\b",
        r"surface area in square \1",
        bare,
    )
    split = _BEFORE_REGION.match(" ".join(bare.split()))
    place = _REGIONS.get(_fold_region(split[2])) if split else None
    if split and place:  # "Release date Europe": the release date in Europe
        bare, keep = f"{split[1]} in {place}", [*keep, *place.split()]
    words = [w.strip(".:*†‡^~") for w in re.split(r"[\s_]+", bare)]
    names = DEMONYMS | MONTHS | set(keep)
    words = [w for w in words if w]

    def a_name(i: int) -> bool:
        w = words[i] if i < len(words) else ""
        parts = w.split("-") if "-" in w else [w]  # "Korean-Americans": a people too
        return all(p in names or (p.endswith("s") and p[:-1] in names) for p in parts)

    return " ".join(
        w if a_name(i) or (w in _COMPASS and a_name(i + 1)) else lower_word(w)
        for i, w in enumerate(words)
    )


def label(relation: str, header: str | None = None) -> str:
    """What a question calls a relation: the table's own header when it has words, else the
    relation's name."""
    raw = header_words(header or "")
    words = raw.rstrip(".")
    name = relation_words(relation)
    # "Pts.", "P": the relation reads better
    abbreviated = (header or "").strip().endswith(".") or len(words) <= 2
    if not re.search(r"[^\W\d_]", words) or (abbreviated and len(name) > len(words)):
        return name
    return words
