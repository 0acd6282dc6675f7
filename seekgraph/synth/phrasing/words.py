"""The grammar every question piece shares: nouns in the singular and plural, participles
and prepositions, a relation's name as words, a list in prose.

Headers and relation names are the raw material of every phrase a question says (the kind of
entity, an attribute, a clue); these are the word-level rules the phrase builders in
`seekgraph.synth.phrasing` apply to them, kept in one place so each builder reads a header the
same way.

>>> singular("cities"), plural("alumnus"), relation_words("~2012_population_rank")
('city', 'alumni', '2012 population rank')
"""

from __future__ import annotations

import re
from collections.abc import Iterable

PARTICIPLES = frozenset(
    [
        "born",
        "died",
        "founded",
        "established",
        "opened",
        "closed",
        "released",
        "built",
        "rebuilt",
        "formed",
        "elected",
        "appointed",
        "located",
        "based",
        "headquartered",
        "published",
        "awarded",
        "completed",
        "launched",
        "introduced",
        "discovered",
        "created",
        "produced",
        "directed",
        "written",
        "signed",
        "drafted",
        "acquired",
        "inaugurated",
        "debuted",
        "retired",
        "married",
        "buried",
        "held",
        "won",
        "flown",
        "played",
    ]
)
_IRREGULAR = {
    "person": "people",
    "man": "men",
    "woman": "women",
    "child": "children",
    "series": "series",
    "species": "species",
    "country": "countries",
    "city": "cities",
    "alumnus": "alumni",
    "alumna": "alumnae",
    "criterion": "criteria",
    "phenomenon": "phenomena",
    "crisis": "crises",
    "thesis": "theses",
    "analysis": "analyses",
    "wife": "wives",
    "life": "lives",
    "knife": "knives",
    "leaf": "leaves",
    "thief": "thieves",
    "hero": "heroes",
    "foot": "feet",
    "mouse": "mice",
    "goose": "geese",
    "staff": "staff",
    "personnel": "personnel",
    "aircraft": "aircraft",
    "sheep": "sheep",
    "fish": "fish",
    "genus": "genera",
    "fungus": "fungi",
    "cactus": "cacti",
    "alga": "algae",
    "larva": "larvae",
    "nucleus": "nuclei",
    "herbarium": "herbaria",
    "aquarium": "aquaria",
    "sanatorium": "sanatoria",
}
_SINGULAR = {v: k for k, v in _IRREGULAR.items()}
# "-us" nouns whose plural adds "es" ("campuses"): the rule below would leave "campuse"
_SINGULAR.update(
    (w + "es", w)
    for w in [
        "bus",
        "campus",
        "status",
        "virus",
        "bonus",
        "circus",
        "census",
        "corpus",
        "genius",
        "walrus",
        "octopus",
        "cactus",
        "syllabus",
        "apparatus",
        "prospectus",
        "consensus",
        "chorus",
        "surplus",
        "stimulus",
    ]
)
# nouns in "-man" that are not compounds of "man" ("Germans", "humans", "specimens")
_NOT_MAN = frozenset(
    [
        "german",
        "roman",
        "human",
        "shaman",
        "talisman",
        "caiman",
        "cayman",
        "ottoman",
        "walkman",
        "dolman",
        "ataman",
        "hetman",
        "specimen",
        "abdomen",
        "regimen",
        "stamen",
        "acumen",
        "semen",
        "hymen",
        "cyclamen",
        "albumen",
        "bitumen",
    ]
)
WORD = re.compile(r"[A-Za-zÀ-ÿ0-9][\wÀ-ÿ'-]*")


def relation_words(relation: str) -> str:
    """``~2012_population_rank`` → ``2012 population rank``."""
    return " ".join(relation.removeprefix("~").replace("_", " ").split())


def singular(word: str) -> str:
    """The singular of a lower-cased noun: irregular forms by table, else by rule.

    >>> singular("alumni"), singular("cities"), singular("matches"), singular("series")
    ('alumnus', 'city', 'match', 'series')
    >>> singular("campuses"), singular("defensemen"), singular("specimens"), singular("Germans")
    ('campus', 'defenseman', 'specimen', 'german')
    """
    low = word.lower()
    if low in _SINGULAR:
        return _SINGULAR[low]
    if low.endswith("men") and len(low) > 5 and low not in _NOT_MAN:
        return low[:-3] + "man"  # "defensemen", "chairwomen"
    if low in _IRREGULAR or len(low) <= 3 or low.endswith(("ss", "us", "is")):
        return low
    if low.endswith("ies") and len(low) > 4:
        return low[:-3] + "y"
    if low.endswith(("ches", "shes", "sses", "xes")):
        return low[:-2]
    if low.endswith("s") and not low.endswith(("ss", "us", "is")):
        return low[:-1]
    return low


# nouns whose "ch" is said as k take a plain "s"
_HARD_CH = (
    "broch",
    "loch",
    "stomach",
    "monarch",
    "epoch",
    "patriarch",
    "matriarch",
    "oligarch",
    "tech",
    "czech",
    "eunuch",
    "triptych",
    "conch",
)


def plural(word: str) -> str:
    """The plural of a noun ("alumni" stays, never "alumnis").

    >>> plural("alumni"), plural("footballer"), plural("city"), plural("club"), plural("alumnus")
    ('alumni', 'footballers', 'cities', 'clubs', 'alumni')
    >>> plural("defenseman"), plural("chairwoman"), plural("German"), plural("campus")
    ('defensemen', 'chairwomen', 'germans', 'campuses')
    >>> plural("broch"), plural("church"), plural("monarch")
    ('brochs', 'churches', 'monarchs')
    """
    if word.isupper() and len(word) <= 4:
        return word  # "HS", "CR": an abbreviation keeps its form
    low = singular(word)
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if low.endswith("man") and len(low) > 5 and low not in _NOT_MAN:
        return low[:-3] + "men"  # "defensemen", "chairwomen", never "defensemans"
    if low.endswith("y") and len(low) > 2 and low[-2] not in "aeiou":
        return low[:-1] + "ies"
    if low.endswith(_HARD_CH):
        return low + "s"  # "brochs", "monarchs", "stomachs": a "ch" said as k
    if low.endswith(("s", "x", "ch", "sh")):
        return low + "es"
    return low + "s"


def tidy(header: str) -> str:
    """Curly apostrophes straightened, tokenised possessives and punctuation rejoined
    ("successor 's", "City , State")."""
    header = header.replace("’", "'").replace("‘", "'")
    header = re.sub(r"\s+([,;:])", r"\1", header)
    return re.sub(r"\s+'s\b", "'s", header)


def values_are(kinds: Iterable[str], wanted: set[str]) -> bool:
    kinds = set(kinds)
    return bool(kinds) and kinds <= wanted


def lower_word(word: str) -> str:
    """'Co-Hosts' → 'co-hosts', 'Highest-grossing' → 'highest-grossing', 'FIFA', 'iPod' and
    'McDonald' kept (a capital after the first letter of a piece marks a name or acronym), and
    'V-League' (a capital letter alone before a hyphen is a name's part).

    >>> lower_word("V-League"), lower_word("Co-Hosts")
    ('V-League', 'co-hosts')
    """
    pieces = [p for p in re.split(r"[-/']", word) if p]
    if any(ch.isupper() for p in pieces for ch in p[1:]) or re.match(r"[A-Z]-[A-Z]", word):
        return word
    return word.lower()


PREPOSITIONS = frozenset(
    [
        "by",
        "to",
        "from",
        "at",
        "for",
        "of",
        "in",
        "on",
        "with",
        "as",
        "into",
        "via",
        "per",
        "against",
        "versus",
        "vs",
    ]
)
NOT_PARTICIPLES = frozenset(["speed", "seed", "breed", "need", "feed", "hundred", "bed", "red"])


def participle(word: str, after_unit: bool) -> bool:
    low = word.lower()
    if low in PARTICIPLES:
        return True
    return after_unit and low.endswith("ed") and len(low) >= 4 and low not in NOT_PARTICIPLES


def join(items: Iterable[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def value_kind(value_id: str, is_entity: bool) -> str:
    """entity, year, date, number or text (a Value id is ``<kind>:<normalized>``)."""
    return "entity" if is_entity else value_id.split(":", 1)[0]


_NAME_RUN = re.compile(r"[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)*")


def restore_names(phrase: str, header: str, titles: Iterable[str]) -> str:
    """`phrase` (an attribute said in lower case) with the names its `header` (as words,
    `label`) shares with a table's title written as the title writes them: "stations in
    brooklyn" of "List of New York City Subway stations in Brooklyn" is "their stations in
    Brooklyn".

    Wikipedia titles are written in sentence case, so a run of capitalised words in a title
    is a name, except a single word that starts it ("List"). A run is restored where the
    header holds it whole ("home city" holds only part of "New York City": its city stays a
    city); two or more of its words in a row are restored too ("premier division" of "South
    African Premier Division"), and a single word only from a title with a word in lower case
    (a title that is all one name, "Presidents' Athletic Conference", marks no one word of it
    as a name).

    >>> restore_names("their stations in brooklyn", "stations in brooklyn",
    ...               ["List of New York City Subway stations in Brooklyn"])
    'their stations in Brooklyn'
    >>> restore_names("their grand slam titles", "grand slam titles", ["Grand Slam (tennis)"])
    'their Grand Slam titles'
    >>> restore_names("their number of seasons in premier division",
    ...     "number of seasons in premier division", ["South African Premier Division"])
    'their number of seasons in Premier Division'
    >>> restore_names("their home city", "home city", ["List of New York City Subway stations"])
    'their home city'
    >>> restore_names("their conference", "conference", ["Presidents' Athletic Conference"])
    'their conference'
    """
    low_header = header.lower()
    for title in titles:
        words = title.split()
        sentence = len(words) > 1 and any(w.islower() and len(w) > 3 for w in words[1:])
        for match in _NAME_RUN.finditer(title):
            run = match.group(0).rstrip(".").split()
            if match.start() == 0 and len(run) == 1:
                continue  # "List of ...": a title's first word is capitalised anyway
            parts = [run] if sentence or len(run) > 1 else []
            parts += [
                run[i : i + n] for n in range(len(run) - 1, 1, -1) for i in range(len(run) - n + 1)
            ]
            for part in parts:
                name = " ".join(part)
                found = rf"(?<!\w){re.escape(name.lower())}(?!\w)"
                if re.search(found, low_header):
                    phrase = re.sub(found, name, phrase, flags=re.IGNORECASE)
    return phrase
