"""Plain-English pieces of questions: entity kinds, attributes and conditions from table headers.

Headers are written for tables, not sentences ("Born", "Guests", "Team 1", "Pos."). The
relation name a header maps to becomes a noun phrase by one of three rules:

- a past participle ("born", "founded", "released", "located") is a verb: *when* or *where*
  they were born, by the kind of its values (years and dates: when; places: where);
- a noun phrase stays a noun: *their country*, *their 2012 population rank*;
- the key column's header names the kind of entity the table lists (singular and plural), or,
  when it is generic ("Name", "Title", "#"), the head noun of the table's title.

>>> attribute_phrase("born", {"year"})
'the year they were born'
>>> condition_phrase("country", "United Kingdom", "entity")
'whose country is United Kingdom'
>>> entity_kind("Guests", "List of Top Gear guests")
('guest', 'guests')
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

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
    ]
)
WHERE_PARTICIPLES = frozenset(["located", "based", "headquartered", "buried", "held"])
ACTIVE = frozenset(["died", "retired", "debuted"])  # 'the year they died', not 'were died'
PERSON_VERBS = frozenset(
    [
        "born",
        "died",
        "married",
        "retired",
        "debuted",
        "elected",
        "appointed",
        "drafted",
        "signed",
        "buried",
    ]
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
        "notes",
        "note",
        "description",
        "info",
        "information",
        "remarks",
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
}
_SINGULAR = {v: k for k, v in _IRREGULAR.items()}
_ORDINAL = re.compile(r"^\d+(st|nd|rd|th)$", re.IGNORECASE)  # "1st", "3rd": a place, not a kind
_WORD = re.compile(r"[A-Za-zÀ-ÿ0-9][\wÀ-ÿ'-]*")
_TITLE_HEAD = re.compile(
    r"^(?:list|lists|table|index|outline)\s+of\s+(?:the\s+)?(.+?)"
    r"(?:\s+(?:in|of|by|from|for|with|at|on|to|during|since|who|that)\s+.*)?$",
    re.IGNORECASE,
)


GENERIC_SECTIONS = frozenset(["", "main", "list", "table", "overview", "results", "summary"])


@dataclass(frozen=True)
class TableRef:
    """A source table as a question names it."""

    title: str
    section: str = ""

    def quoted(self) -> str:
        title, section = _plain_quotes(self.title), _plain_quotes(self.section.strip())
        if section.lower() in GENERIC_SECTIONS or section.lower() in title.lower():
            return f'"{title}"'
        return f'"{title}" (section "{section}")'


def _plain_quotes(text: str) -> str:
    """Tokenised quotes (``dinar '') and inner double quotes as single quotes, so a quoted
    title stays one quoted string."""
    text = re.sub(r"``\s*", "'", text)
    text = re.sub(r"\s*''", "'", text)
    return text.replace('"', "'")


def relation_words(relation: str) -> str:
    """``~2012_population_rank`` → ``2012 population rank``."""
    return " ".join(relation.removeprefix("~").replace("_", " ").split())


def singular(word: str) -> str:
    low = word.lower()
    if low in _SINGULAR:
        return _SINGULAR[low]
    if low in _IRREGULAR or len(low) <= 3:
        return low
    if low.endswith("ies") and len(low) > 4:
        return low[:-3] + "y"
    if low.endswith(("ches", "shes", "sses", "xes")):
        return low[:-2]
    if low.endswith("s") and not low.endswith(("ss", "us", "is")):
        return low[:-1]
    return low


def plural(word: str) -> str:
    if word.isupper() and len(word) <= 4:
        return word  # "HS", "CR": an abbreviation keeps its form
    low = singular(word)
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if low.endswith("y") and len(low) > 2 and low[-2] not in "aeiou":
        return low[:-1] + "ies"
    if low.endswith(("s", "x", "ch", "sh")):
        return low + "es"
    return low + "s"


def _head_noun(text: str) -> str:
    words = [w for w in _WORD.findall(text) if not w.isdigit()]
    return words[-1] if words else ""


def _tidy(header: str) -> str:
    """Curly apostrophes straightened, tokenised possessives and punctuation rejoined
    ("successor 's", "City , State")."""
    header = header.replace("’", "'").replace("‘", "'")
    header = re.sub(r"\s+([,;:])", r"\1", header)
    return re.sub(r"\s+'s\b", "'s", header)


def entity_kind(key_header: str | None, title: str | None) -> tuple[str, str]:
    """(singular, plural) of what the table lists: its key header, or its title's head noun.

    A longer header is cut before its first preposition or participle ("Film title used in
    nomination" → film title)."""
    bare = re.sub(r"\([^)]*\)|\[[^\]]*\]", " ", _tidy(key_header or ""))
    parts = [p for p in re.split(r"\s+(?:or|and|&)\s+|\s*/\s*", bare) if _WORD.search(p)]
    if len(parts) > 1:
        kinds = [entity_kind(part, None) for part in parts]
        if all(k != ("entry", "entries") for k in kinds):
            return " or ".join(k[0] for k in kinds), " or ".join(k[1] for k in kinds)
    words = [w for w in _WORD.findall(bare) if not w.isdigit() and not _ORDINAL.match(w)]
    of = [i for i, w in enumerate(words) if w.lower() == "of"]
    if of and words[0].lower() in GENERIC and of[0] + 1 < len(words):
        words = words[of[0] + 1 :]  # "Name of school" -> "school"
    cut = [
        i
        for i, w in enumerate(words)
        if i > 0 and (w.lower() in PREPOSITIONS or _participle(w, True)) and w.lower() != "of"
    ]
    if cut and len(words) > 2:
        words = words[: cut[0]]
    while len(words) > 1 and words[-1].lower() in ("name", "names"):
        words = words[:-1]  # "Landmark name" -> "landmark" ("English title" stays)
    if len(words) == 1 and _participle(words[0], True):
        words = []  # "Based", "Listed": a column about the entries, not their kind
    header = " ".join(words)
    if header and header.lower() not in GENERIC:
        words = header.split()
        last = words[-1]
        abbreviation = last.isupper() and len(last) <= 4
        head = last if abbreviation else singular(last)
        heads = last if abbreviation else plural(head)
        modifiers = " ".join(_lower_word(w) for w in words[:-1] if not w.isdigit())
        base = f"{modifiers} {head}".strip() if len(words) <= 3 else head
        return base, f"{modifiers} {heads}".strip() if len(words) <= 3 else heads
    if header.lower() in ("title", "titles"):
        return "title", "titles"  # a filmography's "Title" column lists titles
    match = _TITLE_HEAD.match((title or "").strip())
    if match:
        head = _head_noun(match.group(1))
        if head:
            return singular(head), plural(head)
    return "entry", "entries"


def _values_are(kinds: Iterable[str], wanted: set[str]) -> bool:
    kinds = set(kinds)
    return bool(kinds) and kinds <= wanted


def header_words(header: str) -> str:
    """A table header as words of a sentence: footnotes and brackets dropped, title-case words
    lowered, acronyms and names kept (``"FIFA Ranking [a]"`` → ``"FIFA ranking"``)."""
    bare = re.sub(r"\([^)]*\)|\[[^\]]*\]", " ", _tidy(header or ""))
    words = [w for w in re.split(r"[\s_]+", bare) if w.strip(".:*†‡")]
    return " ".join(_lower_word(w) for w in words)


def _lower_word(word: str) -> str:
    """'Co-Hosts' → 'co-hosts', 'Highest-grossing' → 'highest-grossing', 'FIFA', 'iPod' and
    'McDonald' kept (a capital after the first letter of a piece marks a name or acronym)."""
    pieces = [p for p in re.split(r"[-/']", word) if p]
    if any(ch.isupper() for p in pieces for ch in p[1:]):
        return word
    return word.lower()


def label(relation: str, header: str | None = None) -> str:
    """What a question calls a relation: the table's own header when it has words, else the
    relation's name."""
    raw = header_words(header or "")
    words = raw.rstrip(".")
    name = relation_words(relation)
    abbreviated = raw.endswith(".") or len(words) <= 2  # "Pts.", "P": the relation reads better
    if not re.search(r"[^\W\d_]", words) or (abbreviated and len(name) > len(words)):
        return name
    return words


_UNITS = frozenset(["year", "date", "when", "place", "where"])
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
_NOT_PARTICIPLES = frozenset(["speed", "seed", "breed", "need", "feed", "hundred", "bed", "red"])


def _participle(word: str, after_unit: bool) -> bool:
    low = word.lower()
    if low in PARTICIPLES:
        return True
    return after_unit and low.endswith("ed") and len(low) >= 4 and low not in _NOT_PARTICIPLES


def _verb(words: str, dated: bool = False) -> tuple[str, str] | None:
    """(unit, verb phrase) when `words` end in a participle: 'year introduced' → ('year',
    'were introduced'), 'died' → ('', 'died'); else None. After 'year' or 'date', or when the
    values are dates (`dated`), any '-ed' word counts ('year designated', 'Reopened')."""
    parts = words.split()
    after_unit = len(parts) > 1 and parts[0].lower() in _UNITS
    if not parts or not _participle(parts[-1], after_unit or (dated and len(parts) == 1)):
        return None
    unit = parts[0].lower() if after_unit else ""
    rest = " ".join(parts[1:] if unit else parts)
    last = parts[-1].lower()
    return unit, rest if last in ACTIVE else f"were {rest}"


def attribute_phrase(name: str, value_kinds: Iterable[str] = ()) -> str:
    """What a question asks for one attribute: 'their country', 'the year they were born'.

    `name` is a relation name or a header's words (`label`).

    >>> attribute_phrase("year introduced", {"year"})
    'the year they were introduced'
    """
    words = relation_words(name)
    kinds = set(value_kinds)
    verb = _verb(words, _values_are(kinds, {"year", "date"}))
    if verb is None:
        if words.split()[-1].lower() in PREPOSITIONS:
            return f'the "{words}" column'  # 'Drafted to', 'Originally by': no noun to name
        return f"their {words}"
    unit, phrase = verb
    last = words.split()[-1].lower()
    if unit in ("place", "where") or (
        not unit and (last in WHERE_PARTICIPLES or _values_are(kinds, {"entity", "text"}))
    ):
        return f"where they {phrase}"
    if unit in ("year", "date"):
        return f"the {unit} they {phrase}"
    return f"the {'year' if _values_are(kinds, {'year'}) else 'date'} they {phrase}"


def condition_phrase(name: str, value: str, value_kind: str) -> str:
    """A clue about one entity: 'whose country is United Kingdom', 'who was born in 1954'."""
    words = relation_words(name)
    verb = _verb(words, value_kind in ("year", "date"))
    if verb is None:
        if words.split()[-1].lower() in PREPOSITIONS:
            return f'whose "{words}" column reads {value}'
        return f"whose {words} is {value}"
    _, phrase = verb
    last = words.split()[-1].lower()
    preposition = "on" if value_kind == "date" else "in"
    who = "who" if last in PERSON_VERBS else "that"
    singular_verb = phrase.replace("were ", "was ", 1) if phrase.startswith("were ") else phrase
    return f"{who} {singular_verb} {preposition} {value}"


def join(items: Iterable[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def value_kind(value_id: str, is_entity: bool) -> str:
    """entity, year, date, number or text (a Value id is ``<kind>:<normalized>``)."""
    return "entity" if is_entity else value_id.split(":", 1)[0]
