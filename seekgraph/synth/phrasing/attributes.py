"""An attribute as a person says it, from a relation's header words and its values.

A header no person would say (an unexplained abbreviation, a determiner, symbols, a notes
column) gives the reason it cannot be asked instead (`phrase_attribute`), and the question does
not ask it. A header with no reading of its own is said by the plain rule of
`seekgraph.synth.phrasing.attribute_rule` (a participle is a verb, a noun phrase stays a noun);
the header shapes read apart are in `seekgraph.synth.phrasing.header_shapes`, the values'
shapes in `seekgraph.synth.phrasing.value_shapes` and the header words it knows in
`seekgraph.synth.phrasing.attribute_words`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from seekgraph.synth.phrasing.attribute_rule import attribute_phrase
from seekgraph.synth.phrasing.attribute_words import (
    ABBREVIATIONS,
    ACRONYM_CODES,
    ADJECTIVAL,
    ADVERBS,
    BARE_ADJECTIVES,
    CODED_HEADERS,
    COUNTED_LOSSES,
    CREDITS,
    DEED_OBJECTS,
    DEED_VERBS,
    DETERMINERS,
    EVENT_WORDS,
    GROUPS,
    IRREGULAR_PAST,
    KNOWN_ACRONYMS,
    NOTE_WORDS,
    PAST_VERBS,
    PLACINGS,
    RELATIVE,
    ROLE_COUNTS,
    ROLE_GROUPS,
    SAID,
    SCORE_HEADERS,
    SPAN_WORDS,
    SPELLED_UNITS,
    SYMBOL_WORDS,
    THIRD_PERSON,
    TIME_NOUNS,
    UNCLEAR_ABBREVIATIONS,
    UNITS,
    WHERE_PARTICIPLES,
    YEAR_HEADERS,
)
from seekgraph.synth.phrasing.header_shapes import (
    Phrase,
    alternatives_phrase,
    counted_phrase,
    population_phrase,
    recased,
    subject_of_participle,
)
from seekgraph.synth.phrasing.headers import MONTHS, UNIT_WORDS
from seekgraph.synth.phrasing.value_shapes import (
    YEAR,
    YEAR_SPAN,
    all_years,
    annotated,
    births,
    code_lists,
    codes,
    dates_in,
    degree_codes,
    episode_numbers,
    finishes,
    flags,
    honorifics,
    lifespans,
)
from seekgraph.synth.phrasing.words import (
    NOT_PARTICIPLES,
    PREPOSITIONS,
    lower_word,
    participle,
    relation_words,
    values_are,
)

_CLOCK = re.compile(r"^\+?\d{1,2}:\d{2}(?:[.:]\d+)?$")


_CENTURY = re.compile(r"^(?:\d{1,2}(?:st|nd|rd|th)|[ivx]+)(?:\s+century)?\b", re.IGNORECASE)
# things a row has that a year dates, said as the year of them ("Oldest part: 1060" of a
# church, "Draft: 1949" of a player, "Unveiling: 1892" of a statue)
_DATED_EVENTS = frozenset(
    [
        "oldest part",
        "draft",
        "opening",
        "unveiling",
        "dedication",
        "consecration",
        "most recent win",
    ]
)
# verbs a row's thing does, not has done to it ("Departed", not "were departed")
_INTRANSITIVE = frozenset(
    ["departed", "arrived", "retired", "died", "resigned", "debuted", "operated", "existed"]
)
# deeds done to someone: a column of names under them says whom ("Defeated: Negro Casas")
_OPPONENT_VERBS = frozenset(["defeated", "eliminated", "beaten", "replaced", "succeeded"])
# states a place is in, by things and not people: an island "Surrounded by" seas is not what
# someone did ("what they are surrounded by", not "who surrounded them")
_STATE_VERBS = frozenset(
    ["surrounded", "bordered", "bounded", "drained", "fed", "crossed", "spanned", "flanked"]
)
# a value that says when: a year, a month, a date ("1439, December 18", "Jan / Feb")
_TIME_WORD = re.compile(
    r"\b\d{3,4}\b|\b(?:"
    + "|".join(f"{m[:3]}(?:{m[3:]})?" for m in sorted(MONTHS))  # "jan(?:uary)?"
    + r"|sept)\b",
    re.IGNORECASE,
)
# columns of images: the exported table keeps no picture, so no value of theirs is one
_IMAGE_HEADERS = frozenset(
    ["picture", "pictures", "image", "images", "photo", "photos", "photograph", "logo", "img"]
)
# units a header names after a comma ("Capacity, MWe", "Length, km")
_COMMA_UNITS = frozenset(
    ["mwe", "mw", "gw", "kw", "km", "mi", "m", "ft", "kg", "t", "ha", "usd", "eur", "gbp"]
)
# a rock unit fossils come from ("Adamantina Formation", "Tegama Group")
_ROCK_UNIT = re.compile(r"\b(?:Formation|Group|Member|Beds)\b")
# words before a plural noun and its participle that keep the noun phrase ("Other offices held")
_QUALIFIERS = frozenset(["other", "previous", "former", "major", "notable", "main", "later"])
# a TV station's channels: its digital (RF) one, then the virtual one viewers see
_PSIP = re.compile(r"^\d+(?:\.\d+)? PSIP\b")
# headers over a group of measures, merged into the header below them ("Size Total area")
_GROUP_MEASURES = frozenset(["size", "dimensions", "measurements"])
# a season written with apostrophes ("'11-'12 Enrollment" of a school)
_SHORT_SEASON = re.compile(r"^['’](\d\d)[–-]['’]?(\d\d)$")


def _full_season(match: re.Match[str]) -> str:
    """ "'11-'12" -> "2011-12", "'98-'99" -> "1998-99" (a century by the first year's digits)."""
    first = int(match.group(1))
    return f"{2000 + first if first <= 40 else 1900 + first}-{match.group(2)}"


_SEASON_TOKEN = re.compile(r"(?:1[5-9]|20)\d\d(?:[–-]\d{2,4})?")


_MEDALS = frozenset(["gold", "silver", "bronze"])
# an event held once a year, named by its year in a column of it ("Tournament: 2019")
_EDITIONS = frozenset(["tournament", "championship", "games", "competition", "contest", "edition"])
# what a "<noun> year" header dates: "Event year", "Election year" (the year of the event)
_OCCASIONS = frozenset(["event", "election", "race", "ceremony", "festival"])


# a year of the common era or before it ("306 AD", "c. 1053 AD", "2667-2648 BC")
_ERA_YEAR = re.compile(r"\b\d{1,4}\s*(?:AD|BC|BCE|CE)\b")
# a place's coordinates in degrees ("54°01′34′′N", "35.56°N")
_COORDINATE = re.compile(r"\d°(?:\s*\d{1,2}(?:\.\d+)?′)?.*?[NS]\b")
# periods a column counts something in ("Amateur Era: 12", "Open Era: 6" of a country's
# titles, "Regular season: 31"): the count of what is in a header row the export dropped
_ERAS = frozenset(["era", "period", "season", "decade", "age"])


# headers of where a contestant ended up ("Place finished: 9th", "Finish: Runner-up")
_FINISH_HEADERS = (["place", "finished"], ["finished"], ["finish"], ["finishing", "place"])


_SCORE = re.compile(r"^\d+\s*[–—-]\s*\d+(?:\s*\(.*\))?$")
_MONTH_DAY = re.compile(
    r"^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}$|"
    r"^\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?$",
    re.IGNORECASE,
)
# a count with the year of its last one ("6 (1996)", "0 (N/A)")
_COUNT_AND_YEAR = re.compile(
    r"^\d+(?:\s+\d+)?\s*\(\s*(?:(?:1[89]\d\d|20\d\d)(?:\s*,\s*(?:1[89]\d\d|20\d\d))*|n/?a)\s*\)$",
    re.IGNORECASE,
)  # "6 (1996)", "3 0 (2004, 2006, 2010)": a count and the years it counts
_ALLOWED = re.compile(r"^[\w\s'’–-]+$")


# headers that name nothing a person asks about a row's thing: "Percentage: 16.6%" of a city (a
# share of what?), "Type: Loaned", "Source: Globo Esporte" of a transfer (of what: the
# player?), "Info", a "Serial No" that only counts the rows
_VAGUE_HEADERS = frozenset(
    [
        ("percentage",),
        ("percent",),
        ("share",),
        ("%",),
        ("total",),
        ("type",),
        ("source",),
        ("info",),
        ("information",),
        ("serial", "no"),
        ("serial", "number"),
        ("sl", "no"),
    ]
)


def phrase_attribute(
    name: str, value_kinds: Iterable[str] = (), values: Iterable[str] = ()
) -> Phrase:
    """One attribute as a person says it, from its header words (`label`) and the values it
    holds, or the reason it cannot be said (then the question does not ask it).

    >>> phrase_attribute("pos").text, phrase_attribute("year", {"year"}).text
    ('their position', 'the year')
    >>> phrase_attribute("result F–A", {"text"}, ["2–1", "0–0"]).text
    'the score'
    >>> phrase_attribute("h / a").reason, phrase_attribute("this week in reality").reason
    ('abbreviation', 'determiner')
    >>> phrase_attribute("dir", {"text"}, ["S/W", "E"]).reason
    'abbreviation'
    >>> phrase_attribute("Under construction", {"number", "text"}, ["0", "2 (4 planned)"]).text
    'the number under construction'
    >>> phrase_attribute("current sponsored").reason, phrase_attribute("gap").reason
    ('no_noun', 'relative')
    >>> phrase_attribute("current", {"number"}, ["2", "0"]).reason
    'no_noun'
    >>> phrase_attribute("lap", {"text"}, ["1:45.123", "1:45.500"]).text
    'their lap time'
    >>> phrase_attribute("runners-up", {"number"}, ["2", "0"]).text
    'how many times they were runners-up'
    >>> phrase_attribute("rec").text
    'their record'
    >>> phrase_attribute("took office", {"date", "text"}).text
    'the date they took office'
    >>> phrase_attribute("hall of fame", {"text"}, ["Yes", "No"]).reason
    'flag'
    >>> phrase_attribute("reached number one", {"date"}).text, phrase_attribute("to club").reason
    ('the date they reached number one', 'preposition')
    >>> phrase_attribute("dead", {"number"}, ["113"]).text, phrase_attribute("men").reason
    ('how many died', 'no_noun')
    >>> phrase_attribute("position played", {"entity"}).text
    'the position they played'
    >>> phrase_attribute("surrounded by", {"entity"}).text, phrase_attribute("written by").text
    ('what they are surrounded by', 'who wrote them')
    >>> phrase_attribute("opening day", {"text"}, ["$ 84,424,532"]).text
    'their opening-day gross'
    >>> phrase_attribute("operated", {"text"}, ["1965 - Mar 2008"]).text
    'when they operated'
    >>> phrase_attribute("date", {"year", "text"}, ["1999", "1992-1996"]).text
    'the years'
    >>> phrase_attribute("length", {"text"}, ["2:55", "4:10"]).text
    'their length'
    >>> phrase_attribute("date", {"year"}, ["1947", "1952"]).text
    'the year'
    >>> phrase_attribute("place", {"entity"}, ["Oslo, Norway"]).text, phrase_attribute("place", {"text"}, ["1st"]).text
    ('the place', 'their place')
    >>> phrase_attribute("main cast", {"text"}, ["1–22", "1–9, 14"]).reason
    'group_header'
    >>> phrase_attribute("Name of Film", {"text"}).text
    'their film'
    >>> phrase_attribute("2009-10 season", {"text"}, ["Premier League National, 1st"]).text
    'how they did in the 2009-10 season'
    >>> phrase_attribute("Elimination", {"text"}, ["Eliminated 8th", "Winner"]).text
    'how far they got'
    >>> phrase_attribute("Vacator", {"entity"}).text, phrase_attribute("opponent in the final").text
    ('who left the seat', 'the opponent in the final')
    >>> phrase_attribute("date", {"text"}, ["1735 (completed)", "1541 (established)"]).reason
    'vague'
    >>> phrase_attribute("official selectors", {"text"}, ["AAB, AP, CO", "CP, SS", "INS, UP"]).reason
    'abbreviation'
    >>> phrase_attribute("current capacity with expansion limit", {"text"}).reason
    'merged'
    >>> phrase_attribute("OWGR pts", {"number"}).reason, phrase_attribute("NFL team").text
    ('abbreviation', 'their NFL team')
    >>> phrase_attribute("first elected", {"year", "text"}, ["2010", "2012 (appointed)"]).text
    'the date they were first elected'
    >>> phrase_attribute("eliminated", {"text"}, ["Winner", "Runner-Up", "3rd Place"]).text
    'how far they got'
    >>> phrase_attribute("place finished", {"text"}, ["9th", "Runner-up"]).text
    'where they finished'
    >>> phrase_attribute("held record", {"text"}, ["128-1436", "1957- present"]).text
    'when they held the record'
    >>> phrase_attribute("passenger", {"number", "text"}, ["10,443,393", "14,347.061"]).text
    'the number of passengers'
    >>> phrase_attribute("Victim's age", {"number"}).text, phrase_attribute("Birth", {"date"}).text
    ('their age', 'when they were born')
    >>> phrase_attribute("Notes on setting", {"text"}).reason
    'notes'
    >>> phrase_attribute("Defeated", {"entity"}, ["Negro Casas", "El Hijo del Santo"]).text
    'whom they defeated'
    >>> phrase_attribute("Elevated", {"text"}, ["1439, December 18", "1448, February 16"]).text
    'when they were elevated'
    >>> phrase_attribute("Qualified", {"number"}, ["5", "2"]).text
    'how many times they qualified'
    >>> phrase_attribute("Constructed", {"text"}, ["Temporary", "New"]).reason
    'verb'
    >>> phrase_attribute("Date", {"text"}, ["15th century", "14th century", "1198"]).text
    'when they date from'
    >>> phrase_attribute("Unit", {"entity"}, ["Adamantina Formation", "Tegama Group"]).text
    'the rock formation they were found in'
    >>> phrase_attribute("Other offices held", {"text"}, ["California State Senator (1871)"]).text
    'the other offices they held'
    >>> phrase_attribute("capacity, MWe", {"number"}, ["52.5", "50"]).text
    'their capacity in MWe'
    >>> phrase_attribute("Year", {"text"}, ["1970-1982", "1971-1973", "1972"]).text
    'the years'
    >>> phrase_attribute("Period", {"text"}, ["1958-1961", "1974-1976, 1980-1982"]).text
    'the years of their tenure'
    >>> phrase_attribute("2017 in EUR", {"number"}, ["22,800", "19,100"]).reason
    'no_noun'
    >>> phrase_attribute("Picture", {"text"}, ["Ostfriesisches Milchschaf"]).reason
    'image'
    >>> phrase_attribute("Channel", {"text"}, ["21 PSIP 58", "9 PSIP 9", "34 PSIP/cable 2"]).text
    'their digital and virtual channel numbers'
    >>> phrase_attribute("member", {"text"}, ["11 (11/none)", "6 (none/6)", "12 (12/12)"]).text
    'the number of members'
    >>> phrase_attribute("name", {"text"}).reason, phrase_attribute("map", {"number"}, ["4", "7", "9"]).reason
    ('vague', 'abbreviation')
    >>> phrase_attribute("shipments", {"number", "text"}, ["18,000,000", "(17,690,000)"]).reason
    'merged'
    >>> phrase_attribute("years", {"text"}, ["1973-", "1977-"]).text
    'the year they were born'
    >>> phrase_attribute("percentage", {"text"}, ["16.6%"]).reason, phrase_attribute("original").reason
    ('vague', 'no_noun')
    >>> phrase_attribute("type", {"text"}, ["Loaned"]).reason, phrase_attribute("serial no").reason
    ('vague', 'vague')
    >>> phrase_attribute("winner", {"number"}, ["8", "7"]).text
    'how many times they won'
    >>> phrase_attribute("South Asians", {"number"}, ["973,225"]).text
    'the number of South Asians'
    >>> phrase_attribute("won", {"number"}, ["1", "2"]).text
    'how many times they won'
    >>> phrase_attribute("runner-up", {"number"}, ["0", "3"]).text
    'how many times they were runners-up'
    >>> phrase_attribute("years runner-up", {"text"}, ["1962, 1972"]).text
    'the years they were runners-up'
    >>> phrase_attribute("completion", {"year", "text"}, ["2022", "2019", "??"]).text
    'the year they were completed'
    >>> phrase_attribute("eliminated", {"number"}, ["1", "5"]).text
    'the order in which they were eliminated'
    >>> phrase_attribute("life", {"text"}, ["1916-2002", "1951-", "1967-"]).text
    'the years they lived'
    >>> phrase_attribute("titles", {"text"}, ["6 (1996)", "0 (N/A)", "1 (2017)"]).reason
    'merged'
    >>> phrase_attribute("silver", {"number"}, ["2", "0"]).text, phrase_attribute("lost", {"number"}, ["3"]).text
    ('the number of silver medals', 'how many times they lost')
    >>> phrase_attribute("tournament", {"year"}, ["2019", "2018"]).text
    'the year of the tournament'
    >>> phrase_attribute("first app", {"year"}, ["2001", "2013"]).text, phrase_attribute("since").reason
    ('the year of their first appearance', 'preposition')
    >>> phrase_attribute("population 2010 census", {"number"}, ["2,109,339"]).text
    'their population in the 2010 census'
    >>> phrase_attribute("appearances", {"text"}, ["3 0 (2004, 2006, 2010)", "10 (1991, 1995)"]).reason
    'merged'
    >>> phrase_attribute("best dancer", {"entity"}).text, phrase_attribute("last final won").text
    ('the best dancer', 'the year they last won the final')
    >>> phrase_attribute("departed", {"text"}, ["14 February 1943"]).text
    'when they departed'
    >>> phrase_attribute("type of game", {"text"}, ["Friendly"]).text
    'the type of game'
    >>> phrase_attribute("oldest part", {"year", "text"}, ["1060", "1331-1371"]).text
    'the year of their oldest part'
    >>> phrase_attribute("size total area", {"text"}, ["850,000 sq ft"]).text
    'their total area'
    >>> phrase_attribute("estd", {"year"}, ["1969"]).text, phrase_attribute("estab", {"year"}, ["1896"]).text
    ('the year they were established', 'the year they were established')
    >>> phrase_attribute("fee in m €", {"number"}, ["16.0"]).text
    'their fee in millions of euros'
    >>> phrase_attribute("'11-'12 enrollment", {"number"}, ["1,636"]).text
    'their 2011-12 enrollment'
    >>> phrase_attribute("years lost", {"text"}, ["1983, 1986"]).text
    'the years they lost'
    >>> phrase_attribute("red", {"number"}, ["0", "1"]).text
    'the number of red cards'
    >>> phrase_attribute("event year", {"year"}, ["2018"]).text
    'the year of the event'
    >>> phrase_attribute("first built", {"text"}, ["306 AD", "c. 1053 AD", "1400 BC"]).text
    'the year they were first built'
    >>> phrase_attribute("location", {"text"}, ["54°01′34′′N 8°20′09′′W / 54.026°N 8.3358°W"]).reason
    'coordinates'
    >>> phrase_attribute("amateur era", {"number"}, ["66", "12"]).reason
    'no_noun'
    >>> phrase_attribute("all-time", {"number"}, ["85", "18"]).reason
    'no_noun'
    >>> phrase_attribute("appearance", {"text"}, ["Bloodlines", "Reborn"]).reason
    'vague'
    >>> phrase_attribute("titles", {"number"}, ["2", "1"]).text
    'the number of titles'
    >>> phrase_attribute("title", {"text"}, ["Against the Grain", "Zulu"]).text
    'the title of their work'
    >>> phrase_attribute("title", {"text"}, ["Duke of Norfolk", "Earl of Derby"]).text
    'their title'
    >>> phrase_attribute("main article :", {"text"}, ["See Filipinos in Hawaii"]).reason
    'notes'
    >>> phrase_attribute("club signed", {"entity"}).text
    'the club they signed for'
    >>> phrase_attribute("development active", {"text"}, ["Yes", "Since 1981"]).reason
    'no_noun'
    >>> phrase_attribute("call", {"year"}, ["1520", "1555"]).text
    'the year of their call'
    >>> phrase_attribute("length", {"year"}, ["2013", "2016"]).reason
    'vague'
    >>> phrase_attribute("first title", {"year"}, ["1881", "1951"]).text
    'the year of their first title'
    """
    kinds = set(value_kinds)
    texts = [str(v) for v in values if str(v).strip()]
    if texts and 2 * sum(bool(_ERA_YEAR.search(t)) for t in texts) > len(texts):
        kinds = {"year"}  # "First built: 306 AD", "1400 BC": years before the common era too
    if texts and 2 * sum(bool(_COORDINATE.search(t)) for t in texts) > len(texts):
        return Phrase(reason="coordinates")  # "54°01′34′′N 8°20′09′′W / 54.026°N ...": a map's
    if texts and 5 * sum(bool(_MONTH_DAY.match(t.strip())) for t in texts) >= 4 * len(texts):
        kinds |= {"date"}  # "January 13" of a year's list: a date without its year
    if flags(texts):
        return Phrase(reason="flag")  # "Hall of Fame: Yes": a mark, not a thing to name
    words = relation_words(name).replace("&", " and ")
    # "Capacity, MWe": a quantity and its unit; "City, State": two things
    words = re.sub(
        r"(?<=\w)\s*,\s*(\w+)$",
        lambda m: (
            f" in {m.group(1)}" if m.group(1).lower() in _COMMA_UNITS else f" and {m.group(1)}"
        ),
        words,
    )
    words = re.sub(r"(?<=\w)\s*,\s*(?=\w)", " and ", words)
    words = re.sub(r"\s*/\s*", " / ", words)
    tokens = [t for t in words.split() if t]
    if len(tokens) >= 2 and re.fullmatch(r"\w+['’]s", tokens[0]):
        tokens = tokens[1:]  # "Victim's age" of a victims' table: their age
    if not tokens:
        return Phrase(reason="no_words")
    tokens = [_SHORT_SEASON.sub(_full_season, t) for t in tokens]  # "'11-'12" -> "2011-12"
    if len(tokens) >= 3 and tokens[0].lower() in _GROUP_MEASURES:
        tokens = tokens[1:]  # "Size Total area": a group header over "Total area"
    alternatives = alternatives_phrase(tokens)
    if alternatives is not None:
        return alternatives
    low = [t.lower() for t in tokens]
    if " ".join(low) in SAID:
        return Phrase(SAID[" ".join(low)])
    if low in (["name"], ["names"]):
        return Phrase(reason="vague")  # a "Name" beside the key column: the name of whom?
    see = bool(texts) and 2 * sum(t.strip().lower().startswith("see ") for t in texts) > len(texts)
    if see or " ".join(low).rstrip(" :") in ("main article", "main articles", "see also"):
        return Phrase(reason="notes")  # "Main article: See Filipinos in Hawaii": a pointer
    if len(low) == 1 and low[0] in _IMAGE_HEADERS:
        return Phrase(reason="image")  # "Picture": an image the export dropped; any text is a shift
    if any(re.fullmatch(r"\(\s*[\d,.]+\s*\)", t.strip()) for t in texts):
        return Phrase(reason="merged")  # "Shipments (Sales)": "(17,690,000)" is the other one
    if texts and 2 * sum(bool(_COUNT_AND_YEAR.match(t.strip())) for t in texts) > len(texts):
        return Phrase(reason="merged")  # "Titles (Last): 6 (1996)": a count and a year
    if len(low) >= 3 and "with" in low[1:-1]:
        return Phrase(reason="merged")  # "Current capacity with expansion limit": two numbers
    if code_lists(texts):
        return Phrase(reason="abbreviation")  # "AAB, AP, CO, FN": selectors' codes unexplained
    if degree_codes(texts):
        return Phrase(reason="abbreviation")  # "Affiliation: B 1772", "Att": codes unexplained
    if low[0] in ("date", "dates") and len(low) == 1 and annotated(texts):
        return Phrase(reason="vague")  # "Date(s): 1735 (completed)": the date of what?
    if len(low) == 1 and low[0] in CODED_HEADERS and codes(texts):
        return Phrase(reason="abbreviation")  # "Type: N.P.P", "Type: CR": codes left unexplained
    if set(low) & ROLE_GROUPS and episode_numbers(texts):
        return Phrase(reason="group_header")  # "Main cast: 1–22": a heading over episodes
    scores = bool(texts) and 5 * sum(bool(_SCORE.match(t)) for t in texts) >= 4 * len(texts)
    if scores and (set(low) & SCORE_HEADERS or any(re.fullmatch(r"f\s*[–-]\s*a", t) for t in low)):
        return Phrase("the score")
    lives = low in (["life"], ["lifespan"], ["lifetime"], ["life", "span"])
    if (low == ["years"] or lives) and lifespans(texts, living=lives):
        return Phrase("the years they lived")  # "Years: 1901–1966", "Life: 1916-2002" of people
    if low in (["years"], ["year"]) and births(texts):
        return Phrase("the year they were born")  # "Years: 1973-" of living actors
    if tuple(low) in _VAGUE_HEADERS:
        return Phrase(reason="vague")
    if low == ["year"] and values_are(kinds, {"date"}):
        return Phrase("the date")  # "Year: September 14, 1935" is a date
    centuries = sum(bool(_CENTURY.match(t.strip())) for t in texts)
    if low in (["date"], ["dates"], ["dating"]) and texts and 2 * centuries > len(texts):
        if not any(re.search(r"century|[ivx]\b", t, re.IGNORECASE) for t in texts):
            return Phrase(reason="vague")  # "Date: 15th", "9th" of medals: days, or centuries?
        if centuries == len(texts):
            return Phrase("the century")  # "Date: 13th century", "XII" of manuscripts
        return Phrase("when they date from")  # "Date: 15th century", "1198", "Neolithic"
    if low == ["date"] and values_are(kinds, {"year", "number"}) and all_years(texts):
        return Phrase("the year")  # "Date: 1947": a year, said as one
    spans = [t for t in texts if YEAR_SPAN.match(t.strip())]
    years = [t for t in texts if YEAR.fullmatch(t.strip())]
    if low in (["date"], ["dates"]) and spans and len(spans) + len(years) == len(texts):
        return Phrase("the years")  # "Date: 1992-1996" of a series: years, said as years
    if low == ["year"] and 2 * len(spans) > len(texts) and len(spans) + len(years) == len(texts):
        return Phrase("the years")  # "Year: 1970-1982" of a TV detective: a span, not a year
    tenures = sum(bool(re.match(r"\d{4}\s*[–-]\s*(?:\d{2,4}|present)", t.strip())) for t in texts)
    if low == ["period"] and texts and 2 * tenures > len(texts):
        return Phrase("the years of their tenure")  # "Period: 1974-1976" of head coaches
    if (
        len(tokens) == 1
        and low[0] in YEAR_HEADERS
        and values_are(kinds, {"year", "date", "text", "number"})
    ):
        return Phrase(YEAR_HEADERS[low[0]])
    if len(tokens) == 1 and low[0] in YEAR_HEADERS and texts and all(YEAR.match(t) for t in texts):
        return Phrase(YEAR_HEADERS[low[0]])  # "Year: 1957 (30th)" linking the ceremony
    if len(low) == 1 and low[0] in _EDITIONS and texts and all_years(texts):
        return Phrase(f"the year of the {low[0]}")  # "Tournament: 2019" of a trophy's winners
    if len(tokens) == 2 and _SEASON_TOKEN.fullmatch(tokens[0]) and low[1] == "season":
        # "2009-10 season: Premier League National, 1st": where they stood that season
        return Phrase(f"how they did in the {tokens[0]} season")
    if low == ["place"] and texts and not any(re.search(r"\d", t) for t in texts):
        # "Place: Antwerp, Belgium" of a record set there: where it happened, not "their place"
        # (a swimmer's place is a placing; "Place: 1st" stays theirs)
        return Phrase("the place")
    ordinal = bool(texts) and all(re.fullmatch(r"\d{1,2}", t.strip()) for t in texts)
    if low in (["elimination"], ["eliminated"], ["elimination", "order"]) and ordinal:
        return Phrase("the order in which they were eliminated")  # "Eliminated: 5" of a match
    if low in (["elimination"], ["eliminated"], ["status"]) and finishes(texts):
        return Phrase("how far they got")  # "Elimination: Eliminated 8th", "2nd Runner-up"
    if low in _FINISH_HEADERS and finishes(texts):
        return Phrase("where they finished")  # "Place finished: 9th", not "were finished"
    if len(low) == 2 and low[0] in DEED_VERBS and low[1] in DEED_OBJECTS:
        return Phrase(f"when they {low[0]} the {low[1]}")  # "Held record: 128-1436"
    counts = bool(texts) and all(re.fullmatch(r"\d{1,3}", t.strip()) for t in texts)
    if low in (["all-time"], ["all", "time"]) or (len(low) == 2 and low[1] in _ERAS and counts):
        return Phrase(reason="no_noun")  # "Amateur Era: 12", "All-time: 18": counts of what?
    if len(low) == 2 and low[1] == "active" and low[0] not in ("year", "years", "period"):
        return Phrase(reason="no_noun")  # "Development active: Since 1981": is what active?
    if low in (["title"], ["titles"]) and counts:
        return Phrase("the number of titles")  # "Titles: 2" of a club: a count, not a name
    if low in (["title"], ["titles"]) and texts and not honorifics(texts):
        # "Title: Against the Grain" beside an artist, "Title: The Sea" beside a Booker winner:
        # the title of their work, not a title they hold
        return Phrase("the title of their work")
    if low in (["appearance"], ["appearances"]) and texts and not counts:
        return Phrase(reason="vague")  # "Appearance: Bloodlines": an episode's title, unsaid
    if len(tokens) == 1 and low[0] in ACRONYM_CODES:
        return Phrase(f"their {tokens[0].upper()} code")
    out: list[str] = []
    for i, (token, lower) in enumerate(zip(tokens, low, strict=True)):
        previous = low[i - 1] if i else ""
        following = low[i + 1] if i + 1 < len(low) else ""
        if lower in ("m", "mn", "bn") and following in SYMBOL_WORDS:
            # "Fee (M €)": millions of euros, not "m euros"
            out.extend(["millions" if lower != "bn" else "billions", "of"])
        elif token == "/":
            out.append("or")  # "Home city/suburb": one or the other
        elif lower in SYMBOL_WORDS:
            out.append(SYMBOL_WORDS[lower])
        elif previous == "in" and lower in UNIT_WORDS:
            out.append(token)  # "distance in km"
        elif re.fullmatch(r"[^\W\d_]{1,2}[–—-][^\W\d_]{1,2}|\d+(st|nd|rd|th)", lower):
            return Phrase(reason="abbreviation")  # "F–A", "W–L", "3rd"
        elif lower in UNCLEAR_ABBREVIATIONS:
            return Phrase(reason="abbreviation")  # "Dir": direction or director?
        elif lower in ABBREVIATIONS:
            expanded = ABBREVIATIONS[lower]
            if expanded == "number" and i + 1 < len(tokens) and low[i + 1] != "of":
                expanded = "number of"  # "No . Specimens" -> "number of specimens"
            out.extend(expanded.split())
        elif len(lower) <= 2 and lower not in (
            "of",
            "in",
            "by",
            "to",
            "at",
            "on",
            "or",
            "tv",
            "uk",
            "us",
        ):
            return Phrase(reason="abbreviation")  # "h / a", "P", "W", "F–A"
        elif re.fullmatch(r"[A-Z]{2,5}", token) and len(tokens) == 1:
            return Phrase(reason="abbreviation")  # "UHF", "MSA": a bare acronym explains nothing
        elif re.fullmatch(r"[A-Z]{3,6}", token) and token not in KNOWN_ACRONYMS:
            return Phrase(reason="abbreviation")  # "OWGR pts": points of what?
        else:
            out.append(token)
    cut = len(out)
    while cut > 1 and out[cut - 1].lower() in SPELLED_UNITS | {"or"}:
        cut -= 1
    if "or" in [w.lower() for w in out[cut:]] and out[cut - 1].lower() != "in":
        out = out[:cut]  # "Height metres / feet" -> "height"
    if len(out) >= 3 and [w.lower() for w in out[:2]] == ["name", "of"]:
        out = out[3:] if out[2].lower() in ("the", "a", "an") and len(out) > 3 else out[2:]
        out = [lower_word(w) for w in out]
        # "Name of Film" -> "their film": the name is what any value of the column is
    if out[0].lower() in DETERMINERS or any(
        w.lower() in DETERMINERS - {"the", "a", "an"} for w in out
    ):
        return Phrase(reason="determiner")  # "This week in reality", "Currently at this location"
    if out[0].lower() in ("and", "or") or out[-1].lower() in ("and", "or"):
        return Phrase(reason="symbols")
    text = " ".join(out)
    if not _ALLOWED.match(text) or not re.search(r"[^\W\d_]", text):
        return Phrase(reason="symbols")
    lowered = [w.lower() for w in out]
    if len(out) == 2 and lowered[1] in ("date", "year") and participle(out[0], True):
        out, lowered = [out[1], out[0]], [lowered[1], lowered[0]]  # "Chartered date"
        text = " ".join(out)
    dated_event = " ".join(lowered) in _DATED_EVENTS and kinds <= {"year", "date", "text"}
    if dated_event and texts and all(YEAR_SPAN.match(t) or YEAR.match(t) for t in texts):
        return Phrase(f"the year of their {' '.join(lowered)}")  # "Oldest part: 1060"
    if re.fullmatch(r"1[5-9]\d\d|20\d\d", lowered[0]) and all(
        w in UNIT_WORDS or w in ("in", "of") or w.upper() in ("EUR", "USD", "GBP")
        for w in lowered[1:]
    ):
        return Phrase(reason="no_noun")  # "2017 (in EUR)": the year and unit of what?
    if lowered == ["since"]:
        return Phrase(reason="preposition")  # "Since: 2006": in the league since? in office?
    debut = lowered[0] in ("first", "last") and lowered[1:] in (["appearance"], ["appearances"])
    if debut and texts and all_years(texts):  # "First app: 2001" of a league's teams
        return Phrase(f"the year of their {lowered[0]} appearance")
    notes_first = lowered[0] in NOTE_WORDS and (len(out) <= 2 or lowered[1] in PREPOSITIONS)
    if notes_first or lowered[-1] in NOTE_WORDS:
        return Phrase(reason="notes")  # "Notes", "Meaning or notes": remarks, not an attribute
    if " ".join(lowered) in ("other information", "other info", "miscellaneous"):
        return Phrase(reason="notes")
    if len(out) >= 2 and re.fullmatch(r"1[5-9]\d\d|20\d\d", out[-1]) and lowered[-2] != "in":
        out = [*out[:-1], "in", out[-1]]  # "Population 2010" -> "population in 2010"
        text = " ".join(out)
    elif (
        len(out) >= 2
        and lowered[-1] in UNIT_WORDS | {"km²", "mi²", "km2", "mi2"}
        and lowered[-2] != "in"
    ):
        out = [*out[:-1], "in", out[-1]]  # "Area km²" -> "area in km²"
        text = " ".join(out)
    said = " ".join(lowered)
    if said in PLACINGS and not values_are(kinds, {"number"}):
        return Phrase(reason="relative")  # "Second" beside "Overall winner": another entity
    if said in CREDITS and values_are(kinds, {"entity", "text"}):
        return Phrase(f"their {CREDITS[said]}")  # "Direction" -> "their director"
    if lowered[0] in ADJECTIVAL and len(out) >= 2:
        # "Estimated number killed", "Installed capacity": a noun phrase
        return Phrase(f"{'the' if 'number' in lowered else 'their'} {' '.join(lowered)}")
    if len(out) == 1 and lowered[0] in RELATIVE:
        return Phrase(reason="relative")  # "their gap": to whom?
    if len(out) == 1 and lowered[0] in COUNTED_LOSSES and values_are(kinds, {"number"}):
        return Phrase(COUNTED_LOSSES[lowered[0]])  # "Dead: 113"
    if len(out) == 1 and lowered[0] in GROUPS:
        return Phrase(reason="no_noun")  # "Men ( years )": the men's what?
    if lowered == ["release"] and kinds & {"date", "year"}:
        return Phrase(f"the {'date' if 'date' in kinds else 'year'} they were released")
    if len(out) >= 4 and not set(lowered) & (PREPOSITIONS | {"and", "or", "of", "the"}):
        return Phrase(reason="merged")  # "Runway direction length surface": four headers
    if len(out) == 1 and lowered[0] in THIRD_PERSON:
        return Phrase(THIRD_PERSON[lowered[0]])  # a bridge's "Carries": what it carries
    rocks = bool(texts) and 2 * sum(bool(_ROCK_UNIT.search(t)) for t in texts) > len(texts)
    if lowered in (["unit"], ["units"], ["formation"], ["stratigraphic", "unit"]) and rocks:
        return Phrase("the rock formation they were found in")  # a fossil's "Unit"
    psip = bool(texts) and 2 * sum(bool(_PSIP.match(t.strip())) for t in texts) > len(texts)
    if lowered[-1] in ("channel", "channels") and psip:
        return Phrase("their digital and virtual channel numbers")  # "21 PSIP 58"
    if lowered in (["tons"], ["tonnes"], ["grt"], ["tonnage"]):
        return Phrase("their tonnage")  # "Tons: 1,200" of a ship
    if (
        lowered in (["number"], ["dates"], ["change"], ["percent", "change"])
        or lowered[-1] == "data"
    ):
        return Phrase(reason="vague")  # "Dates: 1913 built 1975 NRHP-listed", "UNESCO data"
    if lowered in (["notability"], ["notable", "for"], ["known", "for"]):
        return Phrase("what they are known for")  # "Notability: Actor"
    if len(out) == 1 and lowered[0] in BARE_ADJECTIVES:
        return Phrase(reason="no_noun")  # "Current" (drivers, in a table by nationality)
    if (
        len(out) == 1
        and lowered[0] not in TIME_NOUNS
        and texts
        and 5 * sum(bool(_CLOCK.match(t.strip())) for t in texts) >= 4 * len(texts)
    ):
        return Phrase(f"their {lowered[0]} time")  # "Lap" of 1:45.123 -> "their lap time"
    tally = bool(texts) and all(re.fullmatch(r"\d{1,2}", t.strip()) for t in texts)
    if lowered in (["won"], ["wins"], ["winner"]) and tally:
        return Phrase("how many times they won")  # "Won: 2", "Winner: 8" of a club
    if lowered in (["lost"], ["losses"]) and tally:
        return Phrase("how many times they lost")  # "Lost: 3" of a club in finals
    if len(lowered) == 1 and lowered[0] in _MEDALS:
        if texts and all(re.fullmatch(r"\d{1,3}", t.strip()) for t in texts):
            return Phrase(f"the number of {lowered[0]} medals")  # "Silver: 2" of a nation
        return Phrase(reason="vague")  # "Silver: 2016 Dubai": the edition they won it at
    if lowered in (["runner-up"], ["runners-up"]) and tally:
        return Phrase("how many times they were runners-up")  # "Runner-up: 3" of a club
    if lowered in (["years", "runner-up"], ["years", "runners-up"]):
        return Phrase("the years they were runners-up")  # not "their years runner-up"
    if len(lowered) == 2 and lowered[0] in ("year", "years") and lowered[1] in ("won", "lost"):
        return Phrase(f"the years they {lowered[1]}")  # "Year(s) lost" of a league's finalists
    if lowered[:1] in (["red"], ["yellow"]) and lowered[1:] in ([], ["cards"]) and tally:
        return Phrase(f"the number of {lowered[0]} cards")  # "Red: 1" of a disciplinary record
    if len(lowered) == 2 and lowered[1] == "year" and lowered[0] in _EDITIONS | _OCCASIONS:
        return Phrase(f"the year of the {lowered[0]}")  # "Event year" of flag bearers
    if lowered in (["completion"], ["completed"]) and 2 * sum(
        bool(YEAR.fullmatch(t.strip())) for t in texts
    ) > len(texts):
        return Phrase("the year they were completed")  # "Completion: 2022" of a tower
    if len(out) <= 2 and lowered[-1] in ROLE_COUNTS and values_are(kinds, {"number"}):
        if lowered == ["winners"]:
            return Phrase("how many times they won")
        return Phrase(f"how many times they were {' '.join(lowered)}")  # "Runners-up: 2"
    dated = values_are(kinds, {"year", "date", "number", "text"})
    unit = "date" if "date" in kinds else "year"  # "Took office: January 1, 1854" is a date
    if len(out) == 1 and lowered[0] in SPAN_WORDS and dated:
        return Phrase(SPAN_WORDS[lowered[0]].replace("the year", f"the {unit}"))  # "Start"
    numbers = bool(texts) and 2 * sum(bool(re.match(r"\d", t.strip())) for t in texts) > len(texts)
    if lowered[0] in ("in", "under") and len(out) == 2 and numbers:
        return Phrase(f"the number {' '.join(lowered)}")  # "Under construction: 1" of a navy
    if out[0].lower() in PREPOSITIONS and len(out) >= 2:
        return Phrase(reason="preposition")  # "To club", "From": which way?
    verb_first = (
        len(out) >= 2
        and lowered[-1] != "by"  # "Succeeded by": who succeeded them
        and bool(re.fullmatch(r"[a-z]{3,}ed", lowered[0]))
    )
    if lowered[0] in PAST_VERBS or (verb_first and lowered[0] not in NOT_PARTICIPLES):
        if not dated or not dates_in(kinds, texts):
            return Phrase(reason="verb")  # "Spoofed title: Alias" gives no time
        return Phrase(f"the {unit} they {text[0].lower()}{text[1:]}")  # "Began operation"
    if len(out) == 2 and lowered[0] in ("number", "total") and participle(out[1], True):
        return Phrase(f"how many were {lowered[1]}")  # "Number built", "Total produced"
    if (
        len(out) == 3
        and lowered[0] in _QUALIFIERS
        and lowered[1].endswith("s")
        and lowered[1] not in UNITS
        and participle(out[2], False)
    ):
        verb = IRREGULAR_PAST.get(lowered[2], lowered[2])
        return Phrase(f"the {lowered[0]} {lowered[1]} they {verb}")  # "Other offices held"
    if (
        len(out) == 2
        and lowered[0] not in UNITS
        and participle(out[1], False)
        and lowered[0].endswith("s")
    ):
        if values_are(kinds, {"number"}):
            return Phrase(f"how many {lowered[0]} they {lowered[1]}")  # "Games played"
        return Phrase(f"the {lowered[0]} they {lowered[1]}")  # "Offices held", "Titles won"
    if (
        len(out) == 2
        and lowered[0] not in UNITS | ADVERBS
        and not lowered[0].endswith("s")
        and participle(out[1], False)
        and lowered[1] not in WHERE_PARTICIPLES
        and not values_are(kinds, {"year", "date", "number"})
    ):
        verb = IRREGULAR_PAST.get(lowered[1], lowered[1])
        verb += " for" if verb == "signed" else ""  # "Club signed": the club they signed for
        return Phrase(f"the {lowered[0]} they {verb}")  # "Position played", "Team represented"
    if (
        len(out) == 1 and re.fullmatch(r"[a-z]{3,}ed", lowered[0]) and not participle(out[0], False)
    ) and lowered[0] not in NOT_PARTICIPLES:
        if texts and 2 * sum(bool(_TIME_WORD.search(t)) for t in texts) <= len(texts):
            # no time in the values: "Defeated: El Hijo del Santo" is whom, not when
            if lowered[0] in _OPPONENT_VERBS and "entity" in kinds:
                return Phrase(f"whom they {lowered[0]}")
            if tally:
                return Phrase(f"how many times they {lowered[0]}")  # "Qualified: 5"
            return Phrase(reason="verb")  # "Represented: Mexico", "Constructed: Temporary"
        if lowered[0] in _INTRANSITIVE:
            return Phrase(f"when they {lowered[0]}")  # "Departed": when they departed
        return Phrase(f"when they were {lowered[0]}")  # "Killed", "Designated"
    if len(out) >= 2 and out[-1].lower() == "by" and participle(out[-2], True):
        verb = out[-2].lower()
        past = IRREGULAR_PAST.get(verb, verb)
        if len(out) == 2 and verb in _STATE_VERBS:
            return Phrase(f"what they are {verb} by")  # "Surrounded by": seas, not a person
        return Phrase(f"who {past} them") if len(out) == 2 else Phrase(reason="preposition")
    if out[-1].lower() in PREPOSITIONS:
        return Phrase(reason="preposition")  # "Moving from", "For", "Against"
    if (
        len(out) >= 2
        and lowered[0] not in UNITS
        and re.fullmatch(r"[a-z]{3,}ed", lowered[-1])
        and lowered[-1] not in NOT_PARTICIPLES
        and not participle(out[-1], False)
    ):
        return Phrase(reason="no_noun")  # "Current sponsored": a cut header, no thing named
    for i in range(len(lowered) - 1):
        if lowered[i] == "of" and re.fullmatch(r"[a-z-]+['’]s", lowered[i + 1]):
            # "Date of successor's formal installation": whose successor? theirs
            return Phrase(f"the {' '.join([*lowered[: i + 1], 'their', *lowered[i + 1 :]])}")
    money = bool(texts) and all(re.match(r"[$€£¥]\s?\d", t) for t in texts)
    if money and lowered[-1] in ("day", "weekend", "week", "opening"):
        # "Opening day: $ 84,424,532": the money a film took that day, not the day
        return Phrase(f"their {'-'.join(lowered)} gross")
    subject = subject_of_participle(out, kinds)
    if subject is not None:
        return subject
    population = population_phrase(lowered, kinds)
    if population:
        return Phrase(recased(population, out))
    counted = counted_phrase(lowered, kinds, texts)
    if counted:
        return Phrase(recased(counted, out))
    phrase = attribute_phrase(text, kinds)
    years_only = bool(texts) and all(YEAR.fullmatch(t.strip()) for t in texts)
    if len(out) == 1 and lowered[0] in TIME_NOUNS and years_only:
        return Phrase(reason="vague")  # "Length: 2013" of a signing: the year a contract ends
    timed = bool(set(lowered) & {"year", "years", "date", "dates", "season", "seasons"})
    if (
        len(out) <= 3
        and phrase.lower() == f"their {' '.join(lowered)}"
        and years_only
        and not timed
    ):
        # "Call: 1520", "First title: 1881": the year of it, not the thing itself
        phrase = f"the year of {phrase}"
    occasion = (
        (  # "Type of game" of a match, "Best dancer" of a dance: the event's, not theirs
            lowered[:2] == ["type", "of"] and lowered[2:3] in (["game"], ["match"], ["event"])
        )
        or (len(lowered) == 2 and lowered[0] in ("best", "worst"))
    )
    if phrase.startswith("their ") and (lowered[0] in EVENT_WORDS or occasion):
        # "the outcome", "the opponent in the final"
        phrase = "the " + phrase.removeprefix("their ")
    shown = phrase.split()
    if len(out) >= 2 and _SEASON_TOKEN.fullmatch(shown[-1]) and shown[-2] not in PREPOSITIONS:
        phrase = " ".join([*shown[:-1], "in", shown[-1]])  # "Finishing position 2018-19"
    return Phrase(phrase) if '"' not in phrase else Phrase(reason="preposition")
