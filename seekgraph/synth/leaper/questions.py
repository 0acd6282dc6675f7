"""WebLeaper question texts from templates, in plain English, with an optional checked paraphrase.

A question names what it asks for in the words of `seekgraph.synth.phrasing`: the kind of entity
(from the key column), each attribute ("their country", "the year they were born") and each
clue ("whose country is Japan"). Tables are named by their title and section in quotes, as a
person would search for them. Templates keep the question checkable: every table and clue is
named, the answers never are.

A paraphrase by an LLM backend is used only when it keeps every quoted name, every clue value
and every asked attribute (`paraphrase_keeps`); otherwise the template stays, and the task
records which text it got (`question_source`: ``template`` or the backend's name).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from seekgraph.common.text import word_set
from seekgraph.synth.noun_classes import noun_classes
from seekgraph.synth.phrasing.attribute_rule import condition_phrase
from seekgraph.synth.phrasing.attributes import phrase_attribute
from seekgraph.synth.phrasing.header_kind import GENERIC_KIND
from seekgraph.synth.phrasing.headers import header_words, label
from seekgraph.synth.phrasing.tables import TableRef
from seekgraph.synth.phrasing.words import join, relation_words, restore_names, singular

if TYPE_CHECKING:
    from seekgraph.common.llm.base import LLMBackend

# the selection reasons a question says in words (`seekgraph.synth.leaper.selection`); a table
# cut at its row cap is named by its first rows instead
SELECTIONS = ("selection_words", "others_row")


def table_ref(tree: dict[str, Any]) -> TableRef:
    """How a question names a tree's table (a row of ``leaper/find_tree_anchors``): a table
    the source cut at its row cap is named as its first rows, so the question is complete; one
    without a section by its columns and first row, so it is told from the article's other
    tables."""
    return TableRef(
        tree.get("title") or tree["root"],
        tree.get("section_title") or "",
        int(tree.get("first_rows") or 0),
        tree.get("selection") in SELECTIONS,
        tuple(str(c) for c in tree.get("columns") or ()),
        str(tree.get("first_row") or ""),
    )


def relation_values(facts: Iterable[dict[str, Any]]) -> dict[str, list[str]]:
    """relation → the texts of its values in `facts` (rows of ``leaper/find_entity_facts``)."""
    values: dict[str, list[str]] = {}
    for f in facts:
        values.setdefault(f["relation"], []).append(str(f.get("name") or f.get("id") or ""))
    return values


def phrasable(
    relations: Sequence[str],
    kinds: dict[str, set[str]],
    values: dict[str, list[str]],
    labels: dict[str, str] | None = None,
    kind: str = "",
    tables: Sequence[TableRef] = (),
) -> tuple[list[str], dict[str, str]]:
    """(relations a question can ask, {relation: why not} for the others): an attribute whose
    header cannot be said in words ("h / a", "F–A", "This week in reality") is not asked, nor
    one whose value is the same in every row of five or more (``constant``), nor one that
    would be the answers' own kind (``other_subject``: "their team" of clubs is the team of
    someone else in the row, the season's top scorer), nor a bare time of a thing that is no
    event when its `tables` do not say what it dates, or beside another time (``vague_time``,
    `bare_time`, `two_times`).

    >>> phrasable(["dates"], {"dates": {"text"}}, {"dates": ["1946-1950", "1968-1975"]},
    ...           kind="ship", tables=[TableRef("List of ships of the Royal Australian Navy")])
    ([], {'dates': 'vague_time'})
    """
    labels = labels or {}
    kept, dropped = [], {}
    for r in relations:
        phrase = phrase_attribute(labels.get(r, r), kinds.get(r, set()), values.get(r, []))
        said = {" ".join(v.lower().split()) for v in values.get(r, [])}
        others = [labels.get(o, o) for o in relations if o != r]
        if phrase.text and len(said) == 1 and len(values.get(r, [])) >= 5:
            dropped[r] = "constant"  # "Type: TE" in every row: nothing to find per answer
        elif phrase.text and of_own_kind(phrase.text, kind):
            dropped[r] = "other_subject"
        elif phrase.text and (
            bare_time(in_context := said_in_context(phrase.text, others, tables), kind)
            or two_times(in_context, others)  # "the year" beside a "Release date": of what?
        ):
            dropped[r] = "vague_time"
        elif phrase.text:
            kept.append(r)
        else:
            dropped[r] = phrase.reason
    return kept, dropped


# a time said bare: what it dates is left to the reader
_BARE_TIMES = frozenset(["the date", "the year", "the years", "the season", "the seasons"])
# classes of things that are no event and no work: a bare time of theirs dates something in
# their row the header does not say (a ship's "Dates: 1946-1950" in service? built?, a
# player's "Year: 2012" of a chairman's signings); an event's date is its own, a work's year
# its release
_UNDATED_CLASSES = word_set(
    "person ship site place company church school aircraft mountain team venue organization show"
)


def bare_time(text: str, kind: str) -> bool:
    """Whether an attribute's phrase `text` (as its table reads it) is a bare time of answers
    of `kind` (singular) that are things, not events or works.

    >>> bare_time("the years", "ship"), bare_time("the year", "film"), bare_time("the date", "race")
    (True, False, False)
    >>> bare_time("the year they won", "player"), bare_time("the date", "program")
    (False, True)
    """
    if text not in _BARE_TIMES or not kind:
        return False
    return bool(set(noun_classes(singular(kind.split()[-1].lower()))) & _UNDATED_CLASSES)


def two_times(text: str, others: Sequence[str]) -> bool:
    """Whether a bare time (`text`, as its table reads it) is asked beside another column
    that dates something: a film's "Year" beside its "Release date" dates something else
    (its making), which the header does not say.

    >>> two_times("the year", ["English title", "Release date"]), two_times("the year", ["Cast"])
    (True, False)
    """
    dated = any(
        set(relation_words(o).lower().split()) & {"date", "year", "released"} for o in others
    )
    return text in _BARE_TIMES and dated


# nouns of one kind of thing: a club's "Team" column is about another team
_SAME_THINGS = (frozenset(["team", "club", "side", "franchise"]),)


def of_own_kind(phrase: str, kind: str) -> bool:
    """Whether an attribute said as "their X" names the answers' own kind `kind` (singular),
    or a team asked of an event: a club has no team, a film no film, a race no team (the team
    is its winner's); the column is about something else in the row.

    >>> of_own_kind("their team", "club"), of_own_kind("their team", "player")
    (True, False)
    >>> of_own_kind("their film", "film"), of_own_kind("the runner-up", "club")
    (True, False)
    >>> of_own_kind("their team", "race"), of_own_kind("their country", "race")
    (True, False)
    """
    words = phrase.split()
    if not kind or len(words) != 2 or words[0] != "their":
        return False
    noun, own = singular(words[1].lower()), singular(kind.split()[-1].lower())
    teams = _SAME_THINGS[0]
    return (
        noun == own
        or any(noun in same and own in same for same in _SAME_THINGS)
        or (noun in teams and "event" in noun_classes(own))
    )


# a record's progression lists records, each set by the row's athlete: its date, place, mark
# and wind are the record's, not the athlete's
_PROGRESSION = re.compile(r"\brecord progression\b", re.IGNORECASE)
_OF_THE_RECORD = {
    "the date": "the date they set the record",
    "the year": "the year they set the record",
    "their location": "where they set the record",
    "their venue": "where they set the record",
    "the place": "where they set the record",
    "their mark": "the record mark",
    "their time": "the record time",
    "their wind": "the wind",
}
# lists of a show's cast, whose "Duration" is the years each was in it
_CAST = re.compile(r"\bcast\b", re.IGNORECASE)
# lists of buildings, whose bare "Year" or "Date" is when each was built
_BUILDINGS = re.compile(
    r"\b(?:buildings|structures|houses|churches|towers|bridges|castles|palaces|lighthouses|"
    r"skyscrapers|manors|mansions|cathedrals|mosques|temples|forts|fortresses)\b",
    re.IGNORECASE,
)
# titles of lists of characters, whose "Work" column is the work each appears in
_FICTION = re.compile(r"\b(?:fictional|characters)\b", re.IGNORECASE)
# titles of lists of broadcast programmes: their bare "Years" are the years they aired
_PROGRAMMES = re.compile(
    r"\b(?:television|tv)\b.*\b(?:programs|programmes|series|shows)\b", re.IGNORECASE
)
# titles of lists of things that died out: their bare "Date" is when they did
_EXTINCTION = re.compile(r"\bextinct(?:ion)?\b", re.IGNORECASE)
# an attribute naming who performs a song: a "Country of origin" beside it is theirs
_PERFORMERS = re.compile(r"\b(?:artists?|performers?|singers?|bands?)\b")


def _attributes(
    relations: Sequence[str],
    kinds: dict[str, set[str]],
    labels: dict[str, str] | None = None,
    values: dict[str, list[str]] | None = None,
    tables: Sequence[TableRef] = (),
) -> str:
    """The asked attributes in prose, each phrased from its header and values; a name the
    header shares with a table's title keeps its capitals ("their stations in Brooklyn")."""
    labels, values = labels or {}, values or {}
    said = []
    for r in relations:
        header = labels.get(r, r)
        text = phrase_attribute(header, kinds.get(r, set()), values.get(r, [])).text
        text = said_in_context(text, [labels.get(o, o) for o in relations if o != r], tables)
        said.append(
            restore_names(text, header, [t.title for t in tables]) or relation_words(header)
        )
    return join(said)


def said_in_context(text: str, others: Sequence[str], tables: Sequence[TableRef]) -> str:
    """An attribute's phrase as the table it is asked of reads it, `others` the words of the
    other attributes asked beside it: a fictional character's "their work" is the work they
    appear in; a cast list's "their duration" the years they were in the cast; a champions
    list's "their top scorer" (beside the season) the league's top scorer that season; an
    elimination list's "their order" the order in which they were eliminated; a list of
    buildings asks when they were built and where they are; a record
    progression's date, place, mark and wind are the record's; a year beside degrees dates
    the degrees; a bare date of a section of events dates the event (`dated_event`).

    >>> said_in_context("the date", [], [TableRef("2010 in American television", "Deaths")])
    'the date they died'
    >>> said_in_context("their top scorer", ["season"], [TableRef("List of champions")])
    "the league's top scorer that season"
    >>> said_in_context("the years", [], [TableRef("List of ViacomCBS television programs")])
    'the years they aired'
    >>> said_in_context("their issue date of chart", [], [TableRef("List of number-one albums of 2009")])
    'the chart dates they were number one'
    >>> said_in_context("the date", [], [TableRef("List of languages by time of extinction")])
    'when they became extinct'
    >>> said_in_context("their country of origin", ["artist"], [TableRef("Triple J Hottest 100")])
    "their artist's country of origin"
    """
    titles = [t.title for t in tables]
    sections = [t.section for t in tables]
    if text == "their work" and any(_FICTION.search(t) for t in titles):
        return "the work they appear in"  # "Work: The Lion Guard" of a fictional leopard
    if text == "their duration" and any(_CAST.search(t) for t in titles):
        return "the years they were in the cast"  # "Duration: 1997-99" of a soap's cast
    asked_artist = any(_PERFORMERS.search(o.lower()) for o in others)
    if text in ("their country of origin", "their nationality") and asked_artist:
        # a song's "Country of origin" beside its artist is the artist's, not the song's
        return f"their artist's {text.removeprefix('their ')}"
    if text == "their top scorer" and any(relation_words(o) == "season" for o in others):
        return "the league's top scorer that season"  # of a champions list, not the club's
    if text == "their order" and any("eliminat" in s.lower() for s in sections):
        return "the order in which they were eliminated"  # "Order" of an elimination list
    if any(_BUILDINGS.search(t) for t in titles):
        if text == "the year":
            return "the year they were built"  # "Year: 1688" of the oldest buildings in a state
        if text == "the date":
            return "when they were built"  # "Date: 1614", "12th century" of castles
        if text == "the place":
            return "where they are"  # "Place: Burlington" of a building, not of an event
    if "issue date" in text and any(re.search(r"number[- ]one", t, re.I) for t in titles):
        return "the chart dates they were number one"  # "Issue date of chart" of number-ones
    if text == "the years" and any(_PROGRAMMES.search(t) for t in titles):
        return "the years they aired"  # "Years: 1971-1979" of a studio's programmes
    if text in ("the date", "the year") and any(_EXTINCTION.search(t) for t in titles):
        return "when they became extinct"  # "Date: 17th century" of extinct languages
    if text in _OF_THE_RECORD and any(
        _PROGRESSION.search(f"{t.title} {t.section}") for t in tables
    ):
        return _OF_THE_RECORD[text]  # "Wind: 2.0" of a record progression: the record's
    if text in ("the year", "the years") and any("degree" in o.lower() for o in others):
        return f"{text} of their degrees"  # "Year(s): 1934 1953" beside "Degree(s)"
    event = dated_event(tables) if text in (*_BARE_TIMES, "their fee") else ""
    if event == "of the transfer" and text == "their fee":
        return "the transfer fee"  # "Fee: Loan" of a list of transfers
    if event and text != "their fee":
        return f"{text} {event}"  # "Date" of "Transfers -- Out": the date of the transfer
    return text


# events a table's section lists one per row, so its bare "Date" dates that event: what
# follows "the date" ("Transfers -- Out": of the transfer; "Deaths -- May": they died)
_ROW_EVENTS = {
    "transfers": "of the transfer",
    "signings": "of the signing",
    "loans": "of the loan",
    "trades": "of the trade",
    "departures": "they departed",
    "arrivals": "they arrived",
    "retirements": "they retired",
    "delistings": "they were delisted",
    "appointments": "of the appointment",
    "dismissals": "they were dismissed",
    "nominations": "of the nomination",
    "medalists": "they won their medal",
    "medallists": "they won their medal",
    "premieres": "they premiered",
    "debuts": "they debuted",
    "launches": "they were launched",
    "openings": "they opened",
    "closures": "they closed",
    "winners": "they won",
    "award": "they won",
    "prize": "they won",
    "trophy": "they won",
    "nominees": "they were nominated",
    "laureates": "they won",
    "champions": "they won",
    "recipients": "they received it",
    "inductees": "they were inducted",
    "deaths": "they died",
    "obituaries": "they died",
    "births": "they were born",
}


def dated_event(tables: Sequence[TableRef]) -> str:
    """What a row's bare "Date" dates, when the section names the event each row stands for
    ("Transfers -- Out": "of the transfer"; "Deaths -- May": "they died"); two events read
    as either ("Retirements and delistings"); '' otherwise.

    >>> dated_event([TableRef("2013 D.C. United season", "Transfers -- Out")])
    'of the transfer'
    >>> dated_event([TableRef("2009 AFL draft", "Player movements -- Retirements and delistings")])
    'they retired or were delisted'
    >>> dated_event([TableRef("Leyenda de Plata", "Tournament winners")])
    'they won'
    >>> dated_event([TableRef("1995 in Australian television", "Debuts -- Subscription premieres")])
    'they premiered'
    >>> dated_event([TableRef("2013 Hull FC season", "Debuts")])
    'they debuted'
    >>> dated_event([TableRef("Academy Award for Best Actor")])
    'they won'
    >>> dated_event([TableRef("Academy Award for Best Actor", "Winners and nominees")])
    'they won or were nominated'
    >>> dated_event([TableRef("List of ships of the Royal Australian Navy")])
    ''
    >>> dated_event([TableRef("List of Italian football transfers summer 2009", "Window")])
    'of the transfer'
    >>> basic_question(TableRef("Thailand at the 2004 Summer Olympics", "Medalists"),
    ...     "medalists", ["date"], {"date": {"text"}}, {}, {"date": ["August 15"]})
    'Which medalists are listed in the Wikipedia table "Thailand at the 2004 Summer Olympics" (section "Medalists")? For each, give the date they won their medal.'
    """
    events: list[str] = []
    for part in ("section", "title"):  # the section names the rows' event before the title
        events = list(
            dict.fromkeys(
                _ROW_EVENTS[w]
                for t in tables
                for w in re.findall(r"[a-z]+", getattr(t, part).lower())
                if w in _ROW_EVENTS
            )
        )
        if events:
            break
    if set(events) == {"they debuted", "they premiered"}:
        events = ["they premiered"]  # "Debuts -- Subscription premieres": one event, twice named
    if len(events) == 2 and all(e.startswith("they ") for e in events):
        second = events[1].removeprefix("they ")
        return f"{events[0]} or {second}"  # "they retired or were delisted"
    return events[0] if len(events) == 1 else ""


_VENUE = re.compile(r"\b(?:stadiums?|stadia|grounds?|arenas?|venues?|ballparks?)\b")


def table_labels(headers: Iterable[dict[str, str]], key_header: str = "") -> dict[str, str]:
    """relation → the words a table's header gives it (the first column holding it wins); a
    header that names the key column's thing as its owner says "their" for it ("Minister's
    party" beside "Minister" → party); a bare "Capacity" beside a stadium column is the
    stadium's (a club has no capacity).

    >>> table_labels([{"relation": "party", "header": "Minister 's party"}], "Minister")
    {'party': 'party'}
    >>> table_labels([{"relation": "stadium", "header": "Home stadium"},
    ...               {"relation": "capacity", "header": "Capacity"}], "Club")["capacity"]
    'home stadium capacity'
    """
    owner = " ".join(key_header.lower().split())
    said = [
        (h["relation"], label(h["relation"], h["header"])) for h in headers if h.get("relation")
    ]
    venue = next((w.lower() for _, w in said if _VENUE.search(w.lower())), "")
    venue = " ".join([*venue.split()[:-1], singular(venue.split()[-1])]) if venue else ""
    labels: dict[str, str] = {}
    for relation, words in said:
        if venue and words.lower() == "capacity" and not _VENUE.search(owner):
            words = f"{venue} capacity"  # "their home stadium capacity"
        for prefix in (f"{owner}'s ", f"{owner}’s "):
            if owner and words.lower().startswith(prefix) and len(words) > len(prefix):
                words = words[len(prefix) :]
        labels.setdefault(relation, words)
    return labels


def basic_question(
    table: TableRef,
    kind_plural: str,
    relations: Sequence[str],
    kinds: dict[str, set[str]],
    labels: dict[str, str] | None = None,
    values: dict[str, list[str]] | None = None,
    selection: bool | None = None,
    role: str = "",
) -> str:
    """Which entities a table lists, each with its attributes; with `role` (`listed_role`),
    in which role ("listed as winners": the runners-up beside them are not asked).

    A table whose entities share no kind (`kind_plural` is the generic kind) is asked for
    plainly ("The Wikipedia table ... lists things of several kinds"), never as "entries"; a
    table that is a selection (a "Notable ..." section) says so, so the answer is complete as
    the question reads.

    >>> basic_question(
    ...     TableRef("Booker Prize", "Winners"), "authors", ["country", "year"], {"year": {"year"}}
    ... )
    'Which authors are listed in the Wikipedia table "Booker Prize" (section "Winners")? For each, give their country and the year they won.'
    >>> basic_question(TableRef("List of fictional big cats in animation", "Leopards"), "cats", ["work"], {})
    'Which cats are listed in the Wikipedia table "List of fictional big cats in animation" (section "Leopards")? For each, give the work they appear in.'
    >>> basic_question(TableRef("Campeonato Paulista", "Série A2"), "teams", [], {}, role="winners")
    'Which teams are listed as winners in the Wikipedia table "Campeonato Paulista" (section "Série A2")?'
    >>> basic_question(TableRef("Medalists", "", 20), "entries", [], {})
    'The first 20 rows of the Wikipedia table "Medalists" list things of several kinds. Name each of them.'
    """
    where = table.where()
    if kind_plural == GENERIC_KIND[1]:
        lists = "list" if table.first_rows else "lists"
        text = f"{where[0].upper()}{where[1:]} {lists} things of several kinds. Name each of them."
    else:
        text = f"Which {kind_plural} are listed{f' as {role}' if role else ''} in {where}?"
    if table.selection if selection is None else selection:
        text += " The table gives a selection, not all of them."
    if relations:
        text += f" For each, give {_attributes(relations, kinds, labels, values, [table])}."
    return text


# columns of the others an event ranks beside its winners: a table with one lists more of the
# key column's kind than its key column ("Runner-up" teams, "Nominees" albums)
_BESIDE_WINNERS = frozenset(
    [
        *["runner-up", "runners-up", "runner up", "runners up", "finalist", "finalists"],
        *["losing finalist", "nominee", "nominees", "other nominees", "second", "second place"],
        "loser",
    ]
)
# key headers that name the winners' role, said in the plural
_WINNER_ROLES = {
    "winner": "winners",
    "winners": "winners",
    "champion": "champions",
    "champions": "champions",
}


def listed_role(key_header: str, headers: Iterable[str], counts: Iterable[str] = ()) -> str:
    """The role a table's key column lists its things in when another column lists others of
    the event ("Winner" beside "Runner-up": "winners"; "Work" beside "Nominees": "winners"),
    else ''; a column of `counts` lists no one ("Runners-up: 2" of a club's record).

    >>> listed_role("Winner", ["Season", "Winner", "Runner-up"])
    'winners'
    >>> listed_role("Work", ["Year", "Performing artists", "Work", "Nominees"])
    'winners'
    >>> listed_role("Player", ["Year", "Player", "Team"])
    ''
    >>> listed_role("Club", ["Club", "Winners", "Runners-up"], counts=["Winners", "Runners-up"])
    ''
    """
    counted = set(counts)
    said = {" ".join(header_words(h).lower().split()) for h in headers if h not in counted}
    if not said & _BESIDE_WINNERS:
        return ""
    key = " ".join(header_words(key_header).lower().split())
    return "" if key in _BESIDE_WINNERS else _WINNER_ROLES.get(key, "winners")


# kinds one table's pages name and another's name otherwise, said alike when they meet
_SAME_KINDS = {"series": "shows", "programs": "shows", "programmes": "shows", "sitcoms": "shows"}
# kinds that name any of a narrower one: what both tables list is of the narrower kind
_BROAD_KINDS = frozenset(["works", "titles", "people", "places", "things", "items"])


def union_question(
    tables: Sequence[TableRef],
    kind_plurals: Sequence[str],
    relations: Sequence[str],
    kinds: dict[str, set[str]],
    labels: dict[str, str] | None = None,
    values: dict[str, list[str]] | None = None,
) -> str:
    """The entities every one of several tables lists, with the attributes they all state
    (each said from its header and its `values`, as in a Basic question: "Passengers" of
    counts is "the number of passengers").

    Tables whose key columns name their entities alike share one kind; otherwise each table's
    kind is named ("Which laureates listed in A are also listed, as authors, in B?").

    >>> union_question([TableRef("A"), TableRef("B")], ["laureates", "authors"], ["year"], {})
    'Which laureates listed in the Wikipedia table "A" are also listed, as authors, in "B"? For each, give their year, as each table states them.'
    >>> union_question([TableRef("A"), TableRef("B")], ["airports"] * 2, ["passengers"],
    ...     {"passengers": {"number"}}, {}, {"passengers": ["10,443,393", "9,017,718"]})
    'Which airports are listed in both of the Wikipedia tables "A" and "B"? For each, give the number of passengers, as each table states them.'
    >>> union_question([TableRef("A"), TableRef("B")], ["series", "shows"], [], {})
    'Which shows are listed in both of the Wikipedia tables "A" and "B"?'
    >>> union_question([TableRef("A"), TableRef("B")], ["plays", "works"], [], {})
    'Which plays are listed in both of the Wikipedia tables "A" and "B"?'
    """
    names = [t.quoted() for t in tables]
    asked = (
        f"For each, give {_attributes(relations, kinds, labels, values, tables)}, as each table "
        "states them."
        if relations
        else ""
    )
    said = [_SAME_KINDS.get(k, k) for k in kind_plurals]
    if len(set(kind_plurals)) > 1 and len(set(said)) == 1:
        kind_plurals = said  # "series" in one table, "shows" in the other: shows
    named = {k for k in kind_plurals if k not in _BROAD_KINDS}
    if len(set(kind_plurals)) > 1 and len(named) == 1:
        # "plays" in one table, "works" in the other: the works both list are plays
        kind_plurals = [named.pop()] * len(kind_plurals)
    if len(set(kind_plurals)) == 1:
        where = (
            f"both of the Wikipedia tables {names[0]} and {names[1]}"
            if len(names) == 2
            else f"all {len(names)} of the Wikipedia tables {join(names)}"
        )
        return f"Which {kind_plurals[0]} are listed in {where}? {asked}".strip()
    others = [f"as {k}, in {n}" for k, n in zip(kind_plurals[1:], names[1:], strict=True)]
    return (
        f"Which {kind_plurals[0]} listed in the Wikipedia table {names[0]} are also listed, "
        f"{join(others)}? {asked}"
    ).strip()


def reverse_question(
    tables: Sequence[TableRef],
    kind: str,
    kind_plural: str,
    clues: Sequence[tuple[str, str, str]],
    pivot_relation: str,
    relations: Sequence[str],
    kinds: dict[str, set[str]],
    labels: dict[str, str] | None = None,
    values: dict[str, list[str]] | None = None,
) -> str:
    """Find one entity from its clues, read its pivot, list the others sharing it.

    Several clues are read in one row ("in the same row"); several tables give each asked
    value as that table states it.

    >>> reverse_question([TableRef("Booker Prize"), TableRef("Nobel Prize in Literature")],
    ...     "author", "authors", [("nationality", "Nigeria", "entity")], "year", [], {})
    'Of the authors listed in the Wikipedia tables "Booker Prize" and "Nobel Prize in \
Literature", find the only one whose nationality is Nigeria. Then find their year and list every \
other author in these tables with the same year.'
    """
    labels = labels or {}
    described = " and ".join(condition_phrase(labels.get(r, r), value, k) for r, value, k in clues)
    row = " in the same row" if len(clues) > 1 else ""
    pivot = relation_words(labels.get(pivot_relation, pivot_relation))
    owner = "their" if "person" in noun_classes(kind) else "its"  # "find their degree"
    each = ", as each table states them" if len(tables) > 1 else ""
    asked = (
        f" For each, give {_attributes(relations, kinds, labels, values, tables)}{each}."
        if relations
        else ""
    )
    return (
        f"Of the {kind_plural} listed in the Wikipedia tables {join([t.quoted() for t in tables])}, "
        f"find the only one {described}{row}. Then find {owner} {pivot} and list every other {kind} "
        f"in these tables with the same {pivot}.{asked}"
    )


def asked_words(relations: Sequence[str], labels: dict[str, str]) -> list[str]:
    """The words naming each asked attribute: a paraphrase must keep every one of them (a
    dropped attribute is a dropped condition)."""
    return [labels.get(r) or relation_words(r) for r in relations]


def paraphrase_keeps(text: str, must_keep: Iterable[str]) -> bool:
    """True when `text` still contains every string of `must_keep` (case-insensitive)."""
    low = text.lower()
    return all(item.lower() in low for item in must_keep if item)


def quoted_names(question: str) -> list[str]:
    return re.findall(r'"([^"]+)"', question)


def paraphrase(
    question: str, backend: LLMBackend | None, must_keep: Iterable[str] = ()
) -> tuple[str, str]:
    """(question, source): the backend's rewording when it keeps every quoted name and every
    string of `must_keep`, else the template (source ``template``)."""
    if backend is None:
        return question, "template"
    generation = backend.generate(
        [
            {
                "role": "system",
                "content": "Rewrite the question fluently. Keep every quoted name, number "
                "and condition exactly. Reply with the question only.",
            },
            {"role": "user", "content": question},
        ],
        max_tokens=200,
        temperature=0.0,
    )
    text = " ".join(generation.text.split())
    keep = [*quoted_names(question), *must_keep]
    if text and paraphrase_keeps(text, keep):
        return text, backend.name
    return question, "template"
