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
        "won",
        "flown",
        "played",
    ]
)
WHERE_PARTICIPLES = frozenset(["located", "based", "headquartered", "buried", "held"])
ACTIVE = frozenset(["died", "retired", "debuted", "won"])  # 'the year they died', not 'were died'
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
}
# the kind of a table whose entities have no common kind: never written into a question
GENERIC_KIND = ("entry", "entries")
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
    """A source table as a question names it. `first_rows` is set when the source cut the
    table at that many rows (a question then asks for its first rows, which is exact), and
    `selection` when the table is a selection (a "Notable ..." section): a question over
    several tables marks each such table, so none reads as the full list.

    >>> TableRef("2004 NFL Draft", "Round 1", 20).quoted()
    '"2004 NFL Draft" (section "Round 1", first 20 rows)'
    >>> TableRef("2004 NFL Draft", "Round 1", 20).where()
    'the first 20 rows of the Wikipedia table "2004 NFL Draft" (section "Round 1")'
    >>> TableRef("1948 NFL Draft", "Notable undrafted players", selection=True).quoted()
    '"1948 NFL Draft" (section "Notable undrafted players", a selection)'
    """

    title: str
    section: str = ""
    first_rows: int = 0
    selection: bool = False

    def quoted(self, marks: bool = True) -> str:
        """The title and section in quotes, with the row cap and selection marks unless
        `marks` is false (`where` says them in prose instead)."""
        title, section = _plain_quotes(self.title), _plain_quotes(self.section.strip())
        parts = []
        if section.lower() not in GENERIC_SECTIONS and section.lower() not in title.lower():
            parts.append(f'section "{section}"')
        if marks and self.first_rows:
            parts.append(f"first {self.first_rows} rows")
        if marks and self.selection:
            parts.append("a selection")
        return f'"{title}"' + (f" ({', '.join(parts)})" if parts else "")

    def where(self) -> str:
        """The table in a sentence: 'the Wikipedia table "X"', or its first rows."""
        table = f"the Wikipedia table {self.quoted(marks=False)}"
        return f"the first {self.first_rows} rows of {table}" if self.first_rows else table


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
    """The singular of a lower-cased noun: irregular forms by table, else by rule.

    >>> singular("alumni"), singular("cities"), singular("matches"), singular("series")
    ('alumnus', 'city', 'match', 'series')
    """
    low = word.lower()
    if low in _SINGULAR:
        return _SINGULAR[low]
    if low in _IRREGULAR or len(low) <= 3 or low.endswith(("ss", "us", "is")):
        return low
    if low.endswith("ies") and len(low) > 4:
        return low[:-3] + "y"
    if low.endswith(("ches", "shes", "sses", "xes")):
        return low[:-2]
    if low.endswith("s") and not low.endswith(("ss", "us", "is")):
        return low[:-1]
    return low


def plural(word: str) -> str:
    """The plural of a noun ("alumni" stays, never "alumnis").

    >>> plural("alumni"), plural("footballer"), plural("city"), plural("club"), plural("alumnus")
    ('alumni', 'footballers', 'cities', 'clubs', 'alumni')
    """
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
    return GENERIC_KIND


def _values_are(kinds: Iterable[str], wanted: set[str]) -> bool:
    kinds = set(kinds)
    return bool(kinds) and kinds <= wanted


_UNIT_WORDS = frozenset(
    [
        "km",
        "mi",
        "m",
        "ft",
        "cm",
        "mm",
        "kg",
        "lb",
        "lbs",
        "t",
        "kw",
        "mw",
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
    ]
)


_UNIT_NAMES = {
    "km": "kilometres",
    "mi": "miles",
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
}


# Proper adjectives a header may start with ("Greek name", "Korean title"): kept capitalised.
DEMONYMS = frozenset(
    [
        "Afghan",
        "African",
        "Albanian",
        "American",
        "Arabic",
        "Argentine",
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


def header_words(header: str, keep: Iterable[str] = ()) -> str:
    """A table header as words of a sentence: footnotes, stars and other brackets dropped, a
    unit in brackets kept as "in <unit>", newlines and stray marks removed, title-case words
    lowered, acronyms and names kept (``"FIFA Ranking [a]"`` → ``"FIFA ranking"``,
    ``"Distance ( km )"`` → ``"distance in km"``)."""

    def bracket(match: re.Match[str]) -> str:
        inner = " ".join(match.group(0)[1:-1].split())
        if inner and all(w.lower().strip(".") in _UNIT_WORDS for w in inner.split()):
            return f" in {_UNIT_NAMES.get(inner.lower(), inner)} "
        return " "

    text = _tidy(" ".join((header or "").split()))
    text = re.sub(r"\(\s*s\s*\)|/s\b", "", text)  # "Winner ( s )", "Winner/s"
    bare = re.sub(r"\([^)]*\)|\[[^\]]*\]", bracket, text)
    words = [w.strip(".:*†‡^~") for w in re.split(r"[\s_]+", bare)]
    names = DEMONYMS | set(keep)
    return " ".join(w if w in names else _lower_word(w) for w in words if w)


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
    # "Pts.", "P": the relation reads better
    abbreviated = (header or "").strip().endswith(".") or len(words) <= 2
    if not re.search(r"[^\W\d_]", words) or (abbreviated and len(name) > len(words)):
        return name
    return words


_UNITS = frozenset(["year", "years", "date", "dates", "when", "place", "where"])
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
    if unit in ("year", "years", "date", "dates"):
        return f"the {unit} they {phrase}"
    return f"the {'year' if _values_are(kinds, {'year'}) else 'date'} they {phrase}"


# Abbreviations a header uses and the words a person says for them; an abbreviation missing
# here (and any one- or two-letter word) makes the attribute unphrasable, so it is not asked.
ABBREVIATIONS = {
    "pos": "position",
    "no": "number",
    "nr": "number",
    "num": "number",
    "#": "number",
    "pts": "points",
    "pt": "points",
    "gp": "games played",
    "conf": "conference",
    "apps": "appearances",
    "app": "appearances",
    "gls": "goals",
    "yr": "year",
    "yrs": "years",
    "pct": "percentage",
    "avg": "average",
    "att": "attendance",
    "dob": "date of birth",
    "abbr": "abbreviation",
    "co": "company",
    "lga": "local government area",
    "ht": "height",
    "wt": "weight",
    "cap": "capacity",
    "pop": "population",
    "est": "established",
    "dept": "department",
    "govt": "government",
    "approx": "approximate",
    "mgr": "manager",
}
_NOTE_WORDS = frozenset(
    ["notes", "note", "comments", "comment", "remarks", "remark", "description", "details"]
)
_SPAN_WORDS = {
    "start": "the year they started",
    "started": "the year they started",
    "end": "the year they ended",
    "ended": "the year they ended",
    "ends": "the year they end",
}
_PAST_VERBS = frozenset(
    ["began", "became", "joined", "left", "entered", "moved", "started", "ended", "served"]
)
_SYMBOL_WORDS = {"%": "percent", "€": "euros", "$": "dollars", "£": "pounds"}
_ACRONYM_CODES = frozenset(["icao", "iata", "faa", "isbn", "issn", "iso", "fips", "nrhp"])
_DETERMINERS = frozenset(["this", "that", "these", "those", "the", "a", "an", "his", "her", "its"])
_IRREGULAR_PAST = {
    "written": "wrote",
    "sung": "sang",
    "drawn": "drew",
    "taken": "took",
    "shown": "showed",
    "given": "gave",
    "chosen": "chose",
    "driven": "drove",
    "ridden": "rode",
    "beaten": "beat",
    "won": "won",
    "built": "built",
    "made": "made",
    "held": "held",
    "led": "led",
    "sold": "sold",
    "bought": "bought",
    "run": "ran",
}
_SCORE = re.compile(r"^\d+\s*[–—-]\s*\d+(?:\s*\(.*\))?$")
_SCORE_HEADERS = frozenset(["score", "scores", "result", "results", "final", "aggregate", "agg"])
_YEAR_HEADERS = {
    "year": "the year",
    "years": "the years",
    "season": "the season",
    "date": "the date",
}
_ALLOWED = re.compile(r"^[\w\s'’–-]+$")


@dataclass(frozen=True)
class Phrase:
    """An attribute as a question asks for it (`text`), or why it cannot be asked (`reason`:
    ``abbreviation``, ``preposition``, ``determiner``, ``symbols`` or ``no_words``)."""

    text: str = ""
    reason: str = ""


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
    """
    kinds = set(value_kinds)
    texts = [str(v) for v in values if str(v).strip()]
    words = relation_words(name).replace("&", " and ")
    words = re.sub(r"(?<=\w)\s*,\s*(?=\w)", " and ", words)  # "City, State"
    words = re.sub(r"\s*/\s*", " / ", words)
    tokens = [t for t in words.split() if t]
    if not tokens:
        return Phrase(reason="no_words")
    low = [t.lower() for t in tokens]
    scores = bool(texts) and 5 * sum(bool(_SCORE.match(t)) for t in texts) >= 4 * len(texts)
    if scores and (set(low) & _SCORE_HEADERS or any(re.fullmatch(r"f\s*[–-]\s*a", t) for t in low)):
        return Phrase("the score")
    if (
        len(tokens) == 1
        and low[0] in _YEAR_HEADERS
        and _values_are(kinds, {"year", "date", "text", "number"})
    ):
        return Phrase(_YEAR_HEADERS[low[0]])
    if len(tokens) == 1 and low[0] in _ACRONYM_CODES:
        return Phrase(f"their {tokens[0].upper()} code")
    out: list[str] = []
    for i, (token, lower) in enumerate(zip(tokens, low, strict=True)):
        previous = low[i - 1] if i else ""
        if token == "/":
            out.append("and")
        elif lower in _SYMBOL_WORDS:
            out.append(_SYMBOL_WORDS[lower])
        elif previous == "in" and lower in _UNIT_WORDS:
            out.append(token)  # "distance in km"
        elif re.fullmatch(r"[^\W\d_]{1,2}[–—-][^\W\d_]{1,2}|\d+(st|nd|rd|th)", lower):
            return Phrase(reason="abbreviation")  # "F–A", "W–L", "3rd"
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
        else:
            out.append(token)
    if out[0].lower() in _DETERMINERS or any(
        w.lower() in _DETERMINERS - {"the", "a", "an"} for w in out
    ):
        return Phrase(reason="determiner")  # "This week in reality", "Currently at this location"
    if out[0].lower() in ("and", "or") or out[-1].lower() in ("and", "or"):
        return Phrase(reason="symbols")
    text = " ".join(out)
    if not _ALLOWED.match(text) or not re.search(r"[^\W\d_]", text):
        return Phrase(reason="symbols")
    lowered = [w.lower() for w in out]
    if (lowered[0] in _NOTE_WORDS and len(out) <= 2) or lowered[-1] in _NOTE_WORDS:
        return Phrase(reason="notes")  # "Notes", "Meaning or notes": remarks, not an attribute
    if " ".join(lowered) in ("other information", "other info", "miscellaneous"):
        return Phrase(reason="notes")
    if len(out) >= 2 and re.fullmatch(r"1[5-9]\d\d|20\d\d", out[-1]) and lowered[-2] != "in":
        out = [*out[:-1], "in", out[-1]]  # "Population 2010" -> "population in 2010"
        text = " ".join(out)
    elif (
        len(out) >= 2
        and lowered[-1] in _UNIT_WORDS | {"km²", "mi²", "km2", "mi2"}
        and lowered[-2] != "in"
    ):
        out = [*out[:-1], "in", out[-1]]  # "Area km²" -> "area in km²"
        text = " ".join(out)
    dated = _values_are(kinds, {"year", "date", "number", "text"})
    if len(out) == 1 and lowered[0] in _SPAN_WORDS and dated:
        return Phrase(_SPAN_WORDS[lowered[0]])  # "Start", "End" of a run of years
    if lowered[0] in _PAST_VERBS:
        if not dated:
            return Phrase(reason="verb")
        return Phrase(f"the year they {text[0].lower()}{text[1:]}")  # "Began operation"
    if len(out) == 2 and lowered[0] in ("number", "total") and _participle(out[1], True):
        return Phrase(f"how many were {lowered[1]}")  # "Number built", "Total produced"
    if (
        len(out) == 2
        and lowered[0] not in _UNITS
        and _participle(out[1], False)
        and lowered[0].endswith("s")
    ):
        if _values_are(kinds, {"number"}):
            return Phrase(f"how many {lowered[0]} they {lowered[1]}")  # "Games played"
        return Phrase(f"the {lowered[0]} they {lowered[1]}")  # "Offices held", "Titles won"
    if (
        len(out) == 1
        and re.fullmatch(r"[a-z]{3,}ed", lowered[0])
        and not _participle(out[0], False)
    ) and lowered[0] not in _NOT_PARTICIPLES:
        return Phrase(f"when they were {lowered[0]}")  # "Killed", "Designated"
    if len(out) >= 2 and out[-1].lower() == "by" and _participle(out[-2], True):
        verb = out[-2].lower()
        past = _IRREGULAR_PAST.get(verb, verb)
        return Phrase(f"who {past} them") if len(out) == 2 else Phrase(reason="preposition")
    if out[-1].lower() in PREPOSITIONS:
        return Phrase(reason="preposition")  # "Moving from", "For", "Against"
    phrase = attribute_phrase(text, kinds)
    return Phrase(phrase) if '"' not in phrase else Phrase(reason="preposition")


_SHORT_WORDS = frozenset(["of", "in", "by", "to", "at", "on", "or", "as", "tv", "uk", "us"])
_ASKED = re.compile(r"For each, give (.+?)(?:, as each table states them)?\.(?:\s|$)", re.DOTALL)


def attribute_debris(question: str) -> str:
    """The first debris in the attributes a question asks for ('' when it has none): a
    newline, punctuation or star marks, an abbreviation left unexplained ("pos", "h / a",
    "F–A"), a one- or two-letter word, a header phrase after "their" that starts with a
    determiner ("their this week in reality") or a quoted column name.

    >>> attribute_debris("Which drivers ...? For each, give their constructor and their pos.")
    'pos'
    >>> attribute_debris("Which drivers ...? For each, give their constructor and the year.")
    ''
    """
    if "\n" in question:
        return "newline"
    match = _ASKED.search(question)
    if not match:
        return ""
    asked = match.group(1)
    bad = re.search(r"[\"*:/#\[\]{}()!?;†‡^~]", asked)
    if bad:
        return bad.group(0)
    tokens = [t.strip(",") for t in asked.split()]
    for i, token in enumerate(tokens):
        low = token.lower()
        previous = tokens[i - 1].lower() if i else ""
        if re.fullmatch(r"[^\W\d_]{1,2}[–—-][^\W\d_]{1,2}", low):
            return token
        if low in ABBREVIATIONS and ABBREVIATIONS[low] != low:
            return token
        if (
            len(low) <= 2
            and low not in _SHORT_WORDS
            and not (previous == "in" and low in _UNIT_WORDS)
        ):
            return token
        if previous == "their" and low in _DETERMINERS:
            return f"their {token}"
    return ""


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
