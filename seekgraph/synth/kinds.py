"""What the answers of a question are, read from their own pages, not from a table's header.

A header names a column ("School", "Name", "Player"), not what its cells are: a column headed
"School" may list basketball seasons. An entity's own page says what it is in its first
sentence: "Adriano ( born 29 May 1987 ) is a Brazilian professional footballer who ..." →
*footballer*. `page_kind` reads that head noun: the noun phrase after the first "is/was a(n)"
(bracketed asides dropped), cut at the first preposition, relative word, participle, comma or
coordination, and its last word taken.

`answers_kind` decides the kind a question names from all its answers (O(n)):

1. a noun most answers (more than half of all, pages or not) share: that noun, or the key
   header's own word when it names the same noun or the same class ("Laureate" for writers);
   a generic header ("Name") lends the word of a "List of X" title instead ("alumni");
2. else a class most answers share (people, places): that word when it is of that class, else
   "people" or "places". In a class of rival types (works, sites, places, events) a word
   naming one type ("Film") speaks only for answers mostly of it: series are "shows";
3. else the header's or title's word when some pages are of it and no more are of another
   class (a telecom provider, a retailer and a goods company listed by "Company"); a bare
   header or title when no page says;
4. else no common kind: the question says so plainly (`Kind.named` is false).

>>> page_kind("Adriano ( born 1987 ) is a Brazilian professional footballer who plays .")
'footballer'
>>> answers_kind(["footballer", "footballer", "coach"], ("player", "players")).plural
'players'
>>> answers_kind(["season", "season", "season"], ("school", "schools")).plural
'seasons'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from seekgraph.synth.phrasing.header_kind import GENERIC_KIND
from seekgraph.synth.phrasing.words import plural, singular


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words that end the noun phrase after "is a": prepositions, relative words, conjunctions and
# the participles that start a modifier ("a film directed by", "a club based in").
_STOPS = _words(
    """in of on at from for by with within between under into near to as than that which who
    whom whose where when while and or but nor both either serving known also currently now
    formerly later best better mostly mainly widely often against about over after before
    during since across through throughout around along behind beyond upon via per without
    among amongst including like such following written made done sung run held built shown
    drawn given taken sold won begun born found led set told brought bought"""
)
_PUNCT = frozenset([",", ";", ":", ".", "'", '"', "``", "''", "-", "–", "—", "/", "!", "?"])
_COPULA = re.compile(
    r"\b(?:is|was|are|were)\s+(?:(?:a|an|the)\s+|"
    r"(?:one|any|each|some|two|three|four|five|six|ten|\d+)\s+of\s+(?:the\s+)?(?:\w+\s+)?(?=\w))"
    r"(.*)$",
    re.IGNORECASE,
)
# "( Korean : 롯데월드타워 )", "( 1,823 ft )": an aside, not part of what the subject is
_ASIDE = re.compile(r"\(\s[^()]*\s\)")
# "a group of three towers", "a complex of residential towers": the towers are what it is
_COLLECTIVE = re.compile(
    r"^(?:group|complex|pair|cluster|set|collection)\s+of\s+"
    r"(?:(?:two|three|four|five|six|seven|eight|nine|ten|several|many|\d+)\s+)?",
    re.IGNORECASE,
)
# a tokenised full stop (" . "), or one with no space before the next sentence ("an Indian
# politician.He was elected")
_SENTENCE_END = re.compile(r"(?<=[a-z\)\]]{2}) \. |(?<=[a-z]{3})\.(?=[A-Z][a-z])")
_NOT_NOUNS = _words(
    """former retired professional american british english held located situated used
    given defined known formed created designed developed maintained contested licensed
    named called considered listed based the a an this that"""
)

# compound adjectives that end a word of a noun phrase ("Cape Town-based", "state-owned")
_COMPOUND_ADJECTIVES = ("-based", "-owned", "-listed", "-headquartered", "-born")
_ARTICLES = _words("the a an his her its their this that these those")
# nouns ending in -ing, not participles ("a historical Masonic building in")
_ING_NOUNS = _words(
    """building painting recording wedding ring string thing king wing spring morning evening
    clothing ceiling dwelling housing landing crossing meeting offering setting ending opening
    heading lightning pudding sibling viking ling duckling"""
)

# Head nouns that say how a page is written, not what its subject is ("a list of films").
_NOT_KINDS = _words(
    "list name nickname term type kind form part sort variety number overview result example "
    "art"  # uncountable: "public art" lists sculptures and murals, never "arts"
)

# Classes of nouns, most specific first; a question may name a class when most answers are
# of it but share no one noun ("artists" for singers and bands, "people" for a mix of trades).
CLASSES: dict[str, tuple[str, frozenset[str]]] = {
    "artist": (
        "artists",
        _words(
            """singer band group duo trio quartet rapper musician singer-songwriter supergroup
            orchestra dj vocalist songwriter artist ensemble choir"""
        ),
    ),
    "show": (
        "shows",
        _words(
            """series sitcom show programme program serial telenovela miniseries soap drama
            documentary anime cartoon broadcast telecast"""
        ),
    ),
    "book": (
        "books",
        _words(
            """book novel novella novelette memoir collection anthology biography autobiography
            treatise textbook"""
        ),
    ),
    "work": (
        "works",
        _words(
            """film movie series sitcom musical play song album opera drama comedy program
            programme show single novel book game video ep soundtrack documentary miniseries
            telenovela anime manga episode special serial poem painting cartoon short sitcom"""
        ),
    ),
    "team": ("teams", _words("club team franchise side")),
    "venue": (
        "venues",
        _words(
            """venue arena stadium ground rink track racetrack speedway circuit velodrome
            ballpark field racecourse coliseum amphitheatre amphitheater complex"""
        ),
    ),
    "ship": (
        "ships",
        _words(
            """ship boat minesweeper corvette submarine destroyer frigate cruiser vessel liner
            ferry battleship warship steamship schooner tanker carrier sloop gunboat"""
        ),
    ),
    "company": (
        "companies",
        _words(
            """company corporation firm conglomerate manufacturer business subsidiary bank
            retailer insurer airline brewery holding utility operator provider developer
            multinational enterprise distributor supplier chain carmaker automaker"""
        ),
    ),
    "church": (
        "churches",
        _words("church cathedral basilica chapel abbey priory minster kirk"),
    ),
    "school": (
        "schools",
        _words(
            "school university college academy institute seminary conservatory polytechnic "
            "institution"
        ),
    ),
    "site": (
        "sites",
        _words(
            """house church building mill home hotel castle ruin ringfort residence farmstead
            site bridge museum hall tower cemetery monument memorial lighthouse fort mansion
            cathedral chapel temple mosque palace farm barn courthouse theatre theater
            basilica abbey priory shrine synagogue lodge library gristmill mound store
            landmark skyscraper plantation property cairn motte barrow tomb dolmen henge
            hillfort monastery parsonage structure estate station depot"""
        ),
    ),
    "event": (
        "events",
        _words("race edition competition tournament championship event match cup contest"),
    ),
    "aircraft": (
        "aircraft",
        _words("aircraft seaplane floatplane fighter bomber airliner airplane helicopter"),
    ),
    "mountain": ("mountains", _words("mountain peak stratovolcano volcano summit hill massif")),
    "person": (
        "people",
        _words(
            """person man woman curler commander actor actress athlete author bishop boxer businessman
            businesswoman captain cardinal chairman chancellor character chef coach comedian
            composer conductor cricketer cyclist dancer defender designer diplomat director
            driver economist editor engineer entertainer entrepreneur executive farmer
            footballer forward general goalkeeper golfer governor guard gymnast host jockey
            journalist judge jurist king lawyer leader linebacker luger lyricist manager mayor
            member midfielder minister missionary model monarch novelist officer official pastor
            philanthropist philosopher photographer physician physicist pilot pitcher player
            playwright poet politician pope presenter president priest prince princess producer
            professor psychologist publisher quarterback queen racer referee rider rower runner
            sailor saint scholar screenwriter sculptor senator shooter skater skier soldier
            sprinter statesman striker surgeon swimmer teacher tenor theologian trainer umpire
            winger wrestler writer laureate candidate winner champion incumbent nominee
            recipient inductee alumnus student graduate cornerback safety fielder outfielder
            baseman shortstop catcher tackle end back receiver halfback fullback defenceman
            defenseman karateka fencer advocate heir magnate admiral sergeant owner spouse
            veteran campaigner
            architect aviator astronaut explorer inventor activist bowler batsman golfer
            sportsperson skipper mountaineer hurdler representative predecessor successor
            delegate commissioner councillor legislator speaker ambassador barrister solicitor
            servant jumper bobsledder biathlete triathlete decathlete heptathlete skeleton
            founder attorney son daughter billionaire heiress inmate killer murderer rapist
            criminal convict prisoner cleric singer rapper musician singer-songwriter dj
            vocalist songwriter artist titleholder scorer child grandson granddaughter wife
            husband consort duke duchess count countess baron baroness emperor empress
            earl marquess viscount"""
        ),
    ),
    "place": (
        "places",
        _words(
            """city town village borough municipality country state county area suburb hamlet
            community region district capital place province commune parish township
            neighbourhood neighborhood settlement locality territory department prefecture
            island metropolis division subdivision"""
        ),
    ),
    "food": (
        "dishes",
        _words(
            """dish food snack pastry bread flatbread cake soup stew dessert sauce cheese
            sausage pudding salad biscuit cookie confection sweet beverage drink"""
        ),
    ),
    "organization": (
        "organizations",
        _words(
            """organization organisation agency association society foundation charity
            federation institution body"""
        ),
    ),
}
# the class a class's members also belong to (companies and schools are organizations); a
# band is an artist but not a person, so artists are not people (a singer is both by name)
_ALSO = {"company": "organization", "school": "organization"}
# Classes whose members are rival types ("film" and "series", "church" and "house"): a header
# or title naming one member speaks for the class only when most answers are that member.
_RIVALS = frozenset(["work", "site", "place", "event"])
# Roles, not kinds: a guest, a winner or a member may be a person, a band or a club, so a
# header naming a role fits answers of any kind ("Guests" of a talk show: actors and bands).
_ROLES = _words(
    """guest winner nominee recipient honoree entrant participant champion runner-up finalist
    member inductee laureate medalist medallist"""
)
# the words that name all of a class of rival types ("monuments" for cairns and ringforts)
_GENERAL = {
    "work": _words("work show production"),
    "site": _words("site monument landmark property building structure"),
    "place": _words("place area location locality settlement division subdivision"),
    "event": _words("event competition"),
}
_PERSON_ENDINGS = ("ist", "ian", "eer", "man", "woman", "smith")


def first_sentence(text: str) -> str:
    """The text up to its first full stop, with bracketed asides (nested too) removed."""
    text = " ".join(text.split())
    previous = None
    while previous != text:
        previous, text = text, re.sub(r"\([^()]*\)|\[[^\[\]]*\]", " ", text)
    text = " ".join(text.split())
    end = _SENTENCE_END.search(text + " ")
    return text[: end.start()] if end else text


# participles not in "-ed": "battles fought in Nebraska", "buildings built before 1900"
_IRREGULAR_PARTICIPLES = _words(
    """fought built held won made born known written drawn given taken shown sold led run
    begun set put bought brought taught sent spent kept lost laid paid hung struck sung"""
)


def _verbal(low: str) -> bool:
    """A word that may start a modifier after the noun: a participle or an adverb."""
    if low in _NOT_NOUNS or low in _ING_NOUNS:
        return False
    if low in _IRREGULAR_PARTICIPLES:
        return True
    return low.endswith(("ed", "ing")) or (low.endswith("ly") and len(low) > 4)


def _continues(after: str) -> bool:
    """The noun phrase goes on after a participle or adverb when a plain lower-case word that
    is neither a stop word nor an article follows ("animated sitcom", "racing jockey")."""
    low = after.lower()
    return after[:1].islower() and low not in _STOPS and low not in _ARTICLES and not _verbal(low)


_BORN = re.compile(r"\b([A-Z][a-z]+) born\b")
_TRACK_AND_FIELD = re.compile(r"\btrack and field\b", re.IGNORECASE)


_REPRESENTS = re.compile(
    r"\b(team|club|squad|side)\s+(?:represents|represented|competes|competed|plays|played)\b",
    re.IGNORECASE,
)
_SPORTS = _words(
    """basketball football baseball hockey soccer volleyball lacrosse softball wrestling rugby
    athletic athletics sports swimming tennis golf"""
)


def page_kind(text: str | None) -> str | None:
    """The singular head noun of what a page's first sentence says its subject is, or None
    ("X is a German pop music singer ." → ``singer``; "Statistics of ..." → None).

    >>> page_kind("Samsung Tower Palace is a group of seven towers , lettered A-G .")
    'tower'
    >>> page_kind("Nandigam Suresh is an Indian politician.He was elected to the Lok Sabha .")
    'politician'
    >>> page_kind("Lotte World Tower ( Korean : 롯데월드타워 ) is a 123-floor , 555.7-metre "
    ...           "( 1,823 ft ) supertall skyscraper located in Seoul .")
    'skyscraper'
    >>> page_kind("Mark Herrera is a Maltese born athlete who competes for Malta .")
    'athlete'
    >>> page_kind("Mike Schumacher is a track and field athlete who competed for Luxembourg .")
    'athlete'
    >>> page_kind("Bobby Smith ( born 1982 ) is a British political and fathers ' rights activist .")
    'activist'
    >>> page_kind("The LSU Tigers basketball team represents Louisiana State University in NCAA .")
    'team'
    >>> page_kind("The Auburn Tigers men 's basketball team is the intercollegiate men 's basketball "
    ...           "program that represents Auburn University .")
    'team'
    >>> page_kind("Silvestre Herrera was a Private First Class of the United States Army .") is None
    True
    """
    sentence = first_sentence(text or "")
    match = _COPULA.search(sentence)
    if not match:
        # "The Florida Gators men's basketball team represents the University of Florida": the
        # subject's own head noun says what it is when no "is a" does
        acting = _REPRESENTS.search(sentence)
        return acting.group(1).lower() if acting else None
    words: list[str] = []
    phrase = _COLLECTIVE.sub("", _ASIDE.sub(" ", match.group(1)), count=1)
    # compounds the noun phrase holds whole: "a Maltese born athlete", "a track and field athlete"
    phrase = _BORN.sub(r"\1-born", _TRACK_AND_FIELD.sub("track-and-field", phrase))
    tokens = phrase.split()
    for i, token in enumerate(tokens):
        low = token.lower()
        if token == "'s" or (token == "'" and words and words[-1].lower().endswith("s")):
            continue  # "a women 's football club", "a fathers ' rights activist": possessives
        if token == "," and words and words[-1].lower().endswith(_COMPOUND_ADJECTIVES):
            continue  # "a Cape Town-based , South African clothing retailer"
        if low in ("and", "or") and words and words[-1].islower() and not noun_classes(words[-1]):
            after = tokens[i + 1] if i + 1 < len(tokens) else "."
            if _continues(after):
                # "an oil and gas company", "a wireline and wireless provider" (but "a
                # composer and teacher" is a composer)
                words = []
                continue
        if token == "," and len(words) == 1 and words[0].islower():
            after = tokens[i + 1] if i + 1 < len(tokens) else "."
            if after[:1].islower() and after.lower() not in _STOPS:
                continue  # "a public , land-grant research university": adjectives in a row
            if after[:1].isdigit() and any(ch.isdigit() for ch in words[0]):
                continue  # "a 123-floor , 555.7-metre supertall skyscraper": measures
        if low == "of" and words and words[-1][:1].isupper():
            after = tokens[i + 1] if i + 1 < len(tokens) else "."
            if after[:1].isupper():
                words.append(token)
                continue  # "an American Hall of Fame Thoroughbred racehorse": a name
        if token in _PUNCT or low in _STOPS:
            break
        after = tokens[i + 1] if i + 1 < len(tokens) else "."
        if words and token.islower() and _verbal(low) and not _continues(after):
            # "film directed by", "station serving Portland", "player currently playing" stop;
            # "animated sitcom", "horse racing jockey", "daily newspaper" go on
            break
        words.append(token)
    while words and (
        not re.search(r"[a-z]", words[-1])
        or words[-1].lower() in _NOT_NOUNS
        or words[-1].lower().endswith(_COMPOUND_ADJECTIVES)
        or words[-1].endswith("-")
    ):
        words.pop()
    if len(words) >= 3 and words[-2] == "of" and words[-3][:1].isupper():
        words = words[:-2]  # "Member of Parliament": a member
    if not words or words[-1] in ("Class", "Grade"):
        # the end of a rank's name, not a kind: "a Private First Class", "a Technician Fifth
        # Grade" is a soldier, not a class
        return None
    head = singular(words[-1].lower().strip("'\""))
    if head in ("program", "programme") and len(words) > 1 and words[-2].lower() in _SPORTS:
        head = "team"  # "the men's basketball program": a team, not a broadcast
    if head.endswith("sery"):
        head = head[: -len("sery")] + "series"  # "miniseries", not "minisery"
    if not re.fullmatch(r"[a-z][a-z-]*", head) or head in _NOT_KINDS:
        return None
    return head


def noun_classes(noun: str) -> tuple[str, ...]:
    """The classes of a noun, most specific first ("singer" → artist, person; "city" → place).

    >>> noun_classes("singer-songwriter"), noun_classes("guitarist"), noun_classes("season")
    (('artist', 'person'), ('person',), ())
    """
    noun = singular(noun.lower())
    last = noun.rsplit("-", 1)[-1]
    found = [name for name, (_, nouns) in CLASSES.items() if noun in nouns or last in nouns]
    if not found and len(last) > 5 and last.endswith(_PERSON_ENDINGS):
        found = ["person"]
    for name in list(found):
        if name in _ALSO and _ALSO[name] not in found:
            found.append(_ALSO[name])
    return tuple(found)


@dataclass(frozen=True)
class Kind:
    """The kind a question names: singular, plural and where it was read (``pages``,
    ``header``, ``class`` or ``none`` when the answers have no common kind)."""

    singular: str
    plural: str
    source: str

    @property
    def named(self) -> bool:
        return self.source != "none"


NO_KIND = Kind(*GENERIC_KIND, "none")


def _majority(count: int, total: int) -> bool:
    return total > 0 and 2 * count > total


def _head(kind: tuple[str, str] | None) -> str | None:
    """The head noun of a header's kind when it is one plain noun phrase (not "A or B", not
    the generic kind)."""
    if kind is None or tuple(kind) in (GENERIC_KIND, _TITLE_KIND) or " or " in kind[0]:
        return None  # "Title" says no more than "Name": the table's title or section may
    return singular(kind[0].split()[-1])


_TITLE_KIND = ("title", "titles")


# sections that name the players of a team ("Team roster", "Current squad")
_ROSTER = _words("roster rosters squad squads lineup line-up")


# words before a section's plural that say which of them it holds, not what they are
_QUALIFIERS = _words("notable other selected major famous former current principal some early")


def section_kind(section: str | None) -> tuple[str, str] | None:
    """(singular, plural) of a section that starts with a plural noun of a class ("Books banned
    in Iran" → books, "Players -- Current squad" → players), of a later part that is a role
    ("Medal summary -- Medalists" → medalists), or of a team's roster ("Team roster" → players);
    or None.

    >>> section_kind("Books banned in Iran"), section_kind("Filmography -- Television")
    (('book', 'books'), None)
    >>> section_kind("Medal summary -- Medalists"), section_kind("Team roster")
    (('medalist', 'medalists'), ('player', 'players'))
    >>> section_kind("List of economic and monetary unions -- Proposed")
    ('union', 'unions')
    >>> section_kind("Forts and trading posts") is None  # two kinds: not all rows are forts
    True
    >>> section_kind("Notable buildings"), section_kind("Other notable players")
    (('building', 'buildings'), ('player', 'players'))
    """
    parts = (section or "").split(" -- ")
    listed = title_kind(parts[0])
    if listed:
        return listed  # "List of economic and monetary unions -- Proposed"
    words = re.findall(r"[A-Za-z][a-z-]+", parts[0])
    while len(words) > 1 and words[0].lower() in _QUALIFIERS:
        words = words[1:]  # "Notable buildings": the buildings (that it is a selection is
        # `seekgraph.synth.leaper.selection`'s to say)
    if len(words) > 1 and words[1].lower() in ("and", "or"):
        return None  # "Forts and trading posts", "Songs or albums": a list of two kinds
    if words and words[0].lower().endswith("s"):
        head = singular(words[0])
        if head != words[0].lower() and any(head in nouns for _, nouns in CLASSES.values()):
            return head, plural(head)
    for part in parts:
        said = [w.lower() for w in re.findall(r"[A-Za-z][a-z-]+", part)]
        if said and said[-1].endswith("s") and singular(said[-1]) in _ROLES:
            return singular(said[-1]), said[-1]
        if set(said) & _ROSTER:
            return "player", "players"
    return None


def _role_part(kind: tuple[str, str] | None) -> tuple[str, str] | None:
    """The first part of an "A or B" header's kind when it names a role ("guests or
    segments" → guests)."""
    if kind is None or " or " not in kind[0]:
        return None
    first, first_plural = kind[0].split(" or ")[0], kind[1].split(" or ")[0]
    return (first, first_plural) if singular(first.split()[-1]) in _ROLES else None


def _same_noun(named: str, noun: str) -> bool:
    """`noun` is a `named` ("racehorse" is a horse, "outfielder" a fielder)."""
    return noun == named or (len(named) > 3 and noun.endswith(named))


def _class_counts(known: Sequence[str]) -> Counter[str]:
    return Counter(c for k in known for c in noun_classes(k))


_LIST_OF = re.compile(r"^\s*(?:lists?|index|outline)\s+of\s+(?:the\s+)?(.+)$", re.IGNORECASE)


# the National Register of Historic Places lists properties (houses, depots, districts alike)
_REGISTER = re.compile(r"\bRegister of Historic Places\b", re.IGNORECASE)


def title_kind(title: str | None) -> tuple[str, str] | None:
    """(singular, plural) of the head noun of a "List of X" title's X, cut like a first
    sentence's noun phrase (at a preposition, relative word or participle), or None.

    >>> title_kind("List of companies traded on the JSE")
    ('company', 'companies')
    >>> title_kind("List of Dickinson College alumni"), title_kind("Booker Prize")
    (('alumnus', 'alumni'), None)
    >>> title_kind("List of Chief Judges of the New York Court of Appeals")
    ('judge', 'judges')
    >>> title_kind("List of battles fought in Nebraska")
    ('battle', 'battles')
    >>> title_kind("List of economic and monetary unions"), title_kind("List of kings and queens")
    (('union', 'unions'), ('king', 'kings'))
    >>> title_kind("List of politicians, lawyers, and civil servants educated at Jesus College")

    A comma inside the noun phrase lists several kinds (politicians, lawyers and civil
    servants): the title names none of them for all rows, and the pages say what each is.
    """
    if _REGISTER.search(title or ""):
        return "property", "properties"
    match = _LIST_OF.match(" ".join(re.sub(r"\([^()]*\)", " ", title or "").split()))
    if not match:
        return None
    words: list[str] = []
    for token in match.group(1).split():
        low = token.lower()
        if low == "'s":
            continue
        if low == "and" and words and words[-1].islower() and singular(words[-1]) == words[-1]:
            continue  # "economic and monetary unions": two adjectives of one noun
        if token in _PUNCT or low in _STOPS or (words and token.islower() and _verbal(low)):
            break
        if token.endswith(","):
            return None  # "politicians, lawyers, and civil servants": several kinds
        words.append(token)
    listed = any(singular(words[-1]) in nouns for _, nouns in CLASSES.values()) if words else False
    if not words or not (words[-1].islower() or listed):
        return None  # "List of ancient Egyptians": a name, not a kind ("Chief Judges" is one)
    head = singular(words[-1])
    if not re.fullmatch(r"[a-z][a-z-]*", head) or head in _NOT_KINDS:
        return None
    return head, plural(head)


def _fits(named: str, noun: str) -> bool:
    """A page's `noun` is a `named`: the same noun, or a noun of one of its classes (of a
    class of rival types only when `named` names the whole class: a series is no film)."""
    if named in _ROLES:
        return True
    shared = set(noun_classes(named)) & set(noun_classes(noun))
    return _same_noun(named, noun) or any(
        cls not in _RIVALS or named == cls or named in _GENERAL[cls] for cls in shared
    )


def _uncontradicted(named: str, known: Sequence[str]) -> bool:
    """Some pages are a `named` and no more are of a class it is not, or no page is of a class
    at all (pages of no known class, "a wireline provider", "an agriculture business", "a
    hypothetical concept", count neither way: the header or title is all that says)."""
    fit = sum(_fits(named, k) for k in known)
    against = sum(1 for k in known if noun_classes(k) and not _fits(named, k))
    return fit >= against and (fit > 0 or against == 0)


def _speaks_for(named: str, cls: str, known: Sequence[str]) -> bool:
    """A header's or title's noun may name answers of class `cls` whose most common noun is
    `known`: it is of that class and, in a class of rival types, it names the whole class or
    no page noun is more common than those it names ("churches" for cathedrals and a church)."""
    if cls not in noun_classes(named):
        return False
    return (
        cls not in _RIVALS
        or named == cls
        or named in _GENERAL.get(cls, frozenset())
        or _plurality(named, known)
    )


def _plurality(named: str, known: Sequence[str]) -> bool:
    own = set(noun_classes(named)) - _RIVALS
    fit = sum(_same_noun(named, k) or bool(own & set(noun_classes(k))) for k in known)
    return fit >= Counter(known).most_common(1)[0][1]


def answers_kind(
    page_kinds: Sequence[str | None],
    header_kind: tuple[str, str] | None = None,
    title: str | None = None,
    section: str | None = None,
) -> Kind:
    """The kind most answers are (see the module doc); `page_kinds` has one item per answer
    (None where it has no page or its page does not say), `header_kind` is the key header's
    (singular, plural) from `seekgraph.synth.phrasing.header_kind.entity_kind`, `title` the
    table's page title ("List of companies traded on the JSE" names companies), `section` its
    section, which speaks when the title does not ("Books banned in Iran").

    Majorities are taken over the answers whose pages say what they are; an answer without a
    page (an unlinked name) is taken to be of the kind of the others. The header's word, then
    the title's, names the answers in place of the pages' noun or class when it is of it. When
    no noun or class holds most answers, the header's or title's word is still used when some
    pages are of it and no more are of another class (fine-grained kinds that are all banks,
    retailers, holdings are companies); when no page says, it is all there is."""
    known = [singular(k) for k in page_kinds if k]
    # the title speaks for the key column only when its header names no kind of its own
    # ("Name"); a "List of football champions" keyed by "Top scorer" lists scorers
    said = title_kind(title) or section_kind(section)
    own = header_kind if _head(header_kind) is not None else said
    # a list's title says what the list holds ("List of Hawaiian royal residences": palaces,
    # mansions, estates): it speaks for answers mostly of its class, rival types or not
    listed = own is not None and (own is not header_kind or tuple(own) == said)
    role = _role_part(header_kind)
    if own is None and role is not None:
        own = role  # "Guests/Segments": the rows that are not guests have no page
    own_head = _head(own)
    named = [(own, own_head)] if own is not None and own_head is not None else []
    if not known:
        for kind, _ in named[:1]:
            return Kind(kind[0], kind[1], "header")
        return NO_KIND
    top, count = Counter(known).most_common(1)[0]
    classes = _class_counts(known)
    if _majority(count, len(known)):
        for kind, head in named:
            shared = [c for c in noun_classes(top) if _speaks_for(head, c, known)]
            # pages that say only "an administrative division" under a "Region" header: the
            # header's word is the more exact one
            general = [c for c in noun_classes(top) if top in _GENERAL.get(c, frozenset())]
            if _same_noun(head, top) or shared or set(general) & set(noun_classes(head)):
                return Kind(kind[0], kind[1], "header")
        return Kind(top, plural(top), "pages")
    held = [cls for cls in CLASSES if _majority(classes.get(cls, 0), len(known))]
    for kind, head in named:
        if any(
            _speaks_for(head, cls, known) or (listed and cls in noun_classes(head)) for cls in held
        ):
            return Kind(kind[0], kind[1], "header")
    for cls in held:
        others = [k for k in known if noun_classes(k) and cls not in noun_classes(k)]
        for kind, head in named:
            if others and head in _ROLES and _uncontradicted(head, known):
                # "people" for a talk show's guests who include bands: the role is true
                return Kind(kind[0], kind[1], "header")
        return Kind(cls, CLASSES[cls][0], "class")
    for kind, head in named:
        if _uncontradicted(head, known):
            return Kind(kind[0], kind[1], "header")
    return NO_KIND


def kind_fits(named_plural: str, page_kinds: Sequence[str | None], listed: bool = False) -> bool:
    """True when most answers whose pages say what they are are what `named_plural` (a
    question's kind word) says: the same noun, or a noun of its class ("laureates" for writers,
    "people" for politicians, "artists" for bands); true when no page says; true when some are
    and no more are of another class (the rule by which `answers_kind` keeps a header's or
    title's word over pages of many fine-grained kinds); with `listed` (the word is what the
    table's title or section says it lists), true when most are of its class."""
    words = named_plural.split()
    if not words or words[-1].lower() == GENERIC_KIND[1] or " or " in named_plural:
        return False
    known = [singular(k) for k in page_kinds if k]
    if not known:
        return True
    named = singular(words[-1])
    if _majority(sum(_same_noun(named, k) for k in known), len(known)):
        return True
    by_plural = {plural_word: cls for cls, (plural_word, _) in CLASSES.items()}
    classes = [by_plural[words[-1].lower()]] if words[-1].lower() in by_plural else []
    classes += [c for c in noun_classes(named) if _speaks_for(named, c, known)]
    counts = _class_counts(known)
    if listed:
        classes += list(noun_classes(named))
    if any(_majority(counts.get(cls, 0), len(known)) for cls in classes):
        return True
    return _uncontradicted(named, known)
