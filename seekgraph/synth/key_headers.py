"""What a column's header says about its cells, for choosing a table's key column
(`seekgraph.synth.keycolumn`): the vocabulary of entity, affiliation, person, work, attribute
and place words, and the readings built on it: a header's entity-or-attribute signal, its head
noun, whether the table's section or title lists what it names, whether it names an
affiliation or a relation, the row's own things, or one slot of a series of columns.

It reads header text only, never cells, so the column score (`seekgraph.synth.key_score`), the
choice over it and the header-row reader (`seekgraph.synth.ingest.headers`) share one
vocabulary.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from seekgraph.common.text import word_set
from seekgraph.synth.phrasing.headers import DEMONYMS

ENTITY_WORDS = word_set("""
name names title player players team club film films artist song album station school
college laureate winner winners author writer book novel building church
person people member members athlete driver rider candidate company airport
village municipality constituency
episode series show program programme game character actor actress director horse ship
locomotive aircraft model product brand event tournament race competition stadium venue
park lake river mountain island bridge route road highway peak site museum monument
species structure community neighborhood suburb parish settlement work software system
drug site ride restaurant song single recording record pitcher swimmer district
poet musician singer band composer coach manager president governor mayor senator
representative chairman leader champion boxer wrestler gymnast skater cyclist
runner nominee recipient titleholder inmate meeting meet
""")

# the head nouns of columns that say where or with whom a row's entity is (its team, club,
# college, country, suburb): the key only when the section names them ("Clubs"), never over a
# column of the row's own things ("Player", "Name") in a draft, roster or medal table
AFFILIATION_WORDS = word_set("""
team teams club clubs college school university affiliation league conference party label
publisher constructor manufacturer network channel owner employer sponsor
""") | word_set("""
country nation nationality state province suburb hometown municipality community town city
village location region county venue
""")
# the places among them: any distinct column of things beats them ("Site" over "Municipality"),
# where a club or college loses only to the people or names a row is about
PLACE_AFFILIATION = word_set("""
country nation nationality state province suburb hometown municipality community town city
village location region county venue
""")

# the people a row is about: a column of them (or one headed "Name" or "Title") is the key of a
# draft, roster, award or medal table over the team, college or country they are listed with
PERSON_WORDS = word_set("""
name names title titles player players athlete athletes driver drivers rider riders gymnast
swimmer skater cyclist runner boxer wrestler pitcher laureate winner winners recipient nominee
candidate member members person people inmate titleholder champion artist author
""")

# what a bare "Title" column names when the section or title lists these ("best-selling singles")
WORK_WORDS = word_set("""
work film song single album book novel game episode show series play painting poem opera
recording programme program title
""")

# a header that starts with a preposition or ends with one of these says how the row relates to
# a thing ("To club", "Recruited from", "River crossed", "City served"): a relation, not the key
_RELATION_HEAD = word_set("to from in into at by via for with against")
_RELATION_TAIL = word_set("from to by served crossed represented attended won joined")

ATTRIBUTE_WORDS = word_set("""
year years date dates no number rank pos position notes note remarks comments score scores
result results time age height weight capacity population area length elevation pick round
total points pts goals apps caps record ref refs reference references km mi ft m
votes percentage share season seasons opened built founded established elected term
""")

PLACE_WORDS = word_set("""
location locations city cities town nationality state states province
region county place places venue home ground headquarters hq address locale university
""")

# a word of a lowercased header or context: how every reading of a header splits it
WORD_PATTERN = re.compile(r"[a-z]+")


def header_signal(header: str) -> float:
    """+1 for entity-like header words, -1 for attribute-like ones, 0 otherwise."""
    words = WORD_PATTERN.findall(header.lower())
    if not words:
        return -0.5  # an unnamed column is rarely the key
    if (len(words) > 1 and (words[0] in _RELATION_HEAD or words[-1] in _RELATION_TAIL)) or (
        words in (["from"], ["to"], ["via"])
    ):
        return -0.5  # "To club", "River crossed", a highway's "From": a relation of the row's
    if len(words) == 2 and words[1] in ("name", "names") and _other_tongue(words[0]):
        return -0.5  # "Breton name" beside "Town": the row's thing named in another language
    if words[0] in ATTRIBUTE_WORDS or words[-1] in ATTRIBUTE_WORDS:
        return -1.0 if not any(w in ENTITY_WORDS for w in words) else 0.0
    if any(w in ENTITY_WORDS for w in words):
        return 1.0
    if any(w in PLACE_WORDS for w in words):
        return -0.5  # where a row's entity is, rarely what it is
    return 0.0


# words that make a name column another name of the row's thing, not the thing
_OTHER_NAMES = word_set(
    """native local original alternative alternate other former romanized romanised
    transliterated vernacular indigenous breton latin maori gaelic"""
)
# (an "English name" is the name an English article goes by: the row's thing itself)
_TONGUES = frozenset(d.lower() for d in DEMONYMS) - {"english"}


def _other_tongue(word: str) -> bool:
    """A word before "name" that makes it another name of the row's thing: a language
    ("Breton name", "Greek name") or an alias word ("Native name", "Former name").

    >>> _other_tongue("breton"), _other_tongue("greek"), _other_tongue("player")
    (True, True, False)
    """
    return word in _OTHER_NAMES or word in _TONGUES


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


_ORDINAL = word_set("""
1 2 3 4 5 6 7 8 9 10 one two three four five six seven eight nine ten first second third fourth
fifth i ii iii iv v gold silver bronze
""")


def parallel_to(header: str, others: Sequence[str]) -> bool:
    """Whether `header` is one of a series of columns that differ only by a number or an
    ordinal ("Division Three" beside "Division Two", "Couple 1" beside "Couple 2", "Gold" beside
    "Silver"): cells of one series are the same kind of thing in different slots of a row (the
    winners of each division in a year), so none of them is what the rows are.

    >>> parallel_to("Division Three", ["Year", "Division Two", "Division Four"])
    True
    >>> parallel_to("Player", ["Pick", "Team"])
    False
    """
    words = re.findall(r"[a-z]+|\d+", header.lower())
    for other in others:
        theirs = re.findall(r"[a-z]+|\d+", other.lower())
        if theirs == words or len(theirs) != len(words) or not words:
            continue
        diff = [(a, b) for a, b in zip(words, theirs, strict=True) if a != b]
        if len(diff) == 1 and diff[0][0] in _ORDINAL and diff[0][1] in _ORDINAL:
            return True
    return False


def head_noun(header: str) -> str:
    """The noun a header names its cells by: its last word, or the word a "name" or "title"
    qualifies ("Airport name", "Song Title", "Name of District").

    >>> head_noun("MLS team"), head_noun("Song Title"), head_noun("Name of District")
    ('team', 'song', 'district')
    """
    words = WORD_PATTERN.findall(header.lower())
    if not words:
        return ""
    if len(words) > 2 and words[0] in ("name", "names", "title") and words[1] == "of":
        return words[2]
    if len(words) > 1 and words[-1] in ("name", "names", "title", "titles"):
        return words[-2]
    return words[-1]


def names_own_things(header: str) -> bool:
    """Whether a header names the people or things a row is about: "Name", "Title", "Airport
    name", "Player", "2nd runner-up", never a relation ("To club") or an affiliation.

    >>> names_own_things("Name"), names_own_things("2nd runner-up"), names_own_things("Stadium")
    (True, True, False)
    """
    words = WORD_PATTERN.findall(header.lower())
    if not words or is_affiliation(header):
        return False
    return (
        words[-1] in ("name", "names", "title", "titles")
        or words[0] == "name"
        or any(w in PERSON_WORDS for w in words)
    )


_NATION_WORDS = frozenset(["country", "nation", "nationality"])


def _kin(said: list[str], i: int) -> bool:
    """Whether the plural `said[i]` is joined by "and" to a plural of its own sort ("towns and
    cities", "cities and towns"): the table lists both, not one thing and what it gives about
    it ("Stadiums and locations")."""
    partners = [
        said[j]
        for j, at in ((i - 2, i - 1), (i + 2, i + 1))
        if 0 <= j < len(said) and said[at] == "and" and said[j].endswith("s")
    ]
    own = _singular(said[i])
    return any(
        {own, _singular(p)} <= PLACE_AFFILIATION or {own, _singular(p)} <= PERSON_WORDS
        for p in partners
    )


def context_signal(header: str, context: str) -> float:
    """1.0 when the header (one or two words) names by its head noun a thing whose plural the
    section lists ("Team" under "Teams -- Personnel and kits", "Airport name" under "List of
    airports in Nunavut"), else 0. Plurals joined by "and" ("Stadiums and locations") name what
    the table gives about its things, not the things.

    >>> context_signal("Team", "Teams -- Personnel and kits"), context_signal("Head coach", "Teams")
    (1.0, 0.0)
    >>> context_signal("Stadium", "Teams -- Stadiums and locations")
    0.0
    >>> context_signal("Country", "Drivers -- By nationality")
    1.0
    >>> context_signal("Combined Statistical Area", "Major combined statistical areas")
    1.0
    >>> context_signal("City", "List of towns and cities in Norway -- City status since 1996")
    1.0
    """
    words = WORD_PATTERN.findall(header.lower())
    head = head_noun(header)
    said_text = " ".join(WORD_PATTERN.findall(context.lower()))
    if len(words) >= 2 and re.search(rf"\b{' '.join(words)}(?:s|es)\b", said_text):
        return 1.0  # "Combined Statistical Area" under "Major combined statistical areas"
    if not words or len(words) > 3 or head in ATTRIBUTE_WORDS:
        return 0.0
    if len(words) == 3 and words[:2] != ["name", "of"]:
        return 0.0
    said = WORD_PATTERN.findall(context.lower())
    for by in re.findall(r"\bby\s+(\w+)", context.lower()):
        # "Drivers -- By nationality": the rows are the countries, whatever else they list
        if _singular(head) == _singular(by) or (
            by in _NATION_WORDS and _singular(head) in _NATION_WORDS
        ):
            return 1.0
    listed = {
        _singular(w)
        for i, w in enumerate(said)
        if w.endswith("s")
        and ("and" not in said[max(i - 1, 0) : i] + said[i + 1 : i + 2] or _kin(said, i))
    }
    if head in ("title", "titles") and len(words) == 1:
        return 1.0 if listed & WORK_WORDS else 0.0  # "Title" under "best-selling singles"
    return 1.0 if _singular(head) in listed else 0.0


def is_affiliation(header: str) -> bool:
    """Whether a header names where or with whom a row's entity is: its team, club, college,
    country or suburb ("MLS team", "School/Club Team", "Hometown"), or a relation to a thing
    ("To club", "River crossed").

    >>> is_affiliation("MLS team"), is_affiliation("River crossed"), is_affiliation("Player")
    (True, True, False)
    >>> is_affiliation("From")
    True
    """
    words = WORD_PATTERN.findall(header.lower())
    if len(words) > 1 and (words[0] in _RELATION_HEAD or words[-1] in _RELATION_TAIL):
        return True
    if words in (["from"], ["to"], ["via"]):
        return True  # a highway's "From", a transfer's "To": where the row's thing runs or goes
    return head_noun(header) in AFFILIATION_WORDS
