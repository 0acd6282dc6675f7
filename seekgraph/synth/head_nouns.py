"""The head noun a text says its subject is: a page's first sentence, a list's title, a section.

A header names a column ("School", "Name", "Player"), not what its cells are: a column headed
"School" may list basketball seasons. An entity's own page says what it is in its first
sentence: "Adriano ( born 29 May 1987 ) is a Brazilian professional footballer who ..." →
*footballer*. `page_kind` reads that head noun: the noun phrase after the first "is/was a(n)"
(bracketed asides dropped), cut at the first preposition, relative word, participle, comma or
coordination, and its last word taken. `title_kind` cuts a "List of X" title's X the same way,
and `section_kind` reads what a section lists.

These are the readings `seekgraph.synth.kinds.answers_kind` decides a question's kind over;
they read text only, each on its own, so the page reader (`seekgraph.synth.shaper.ops`) and the
quality gate use them without the decision.

>>> page_kind("Adriano ( born 1987 ) is a Brazilian professional footballer who plays .")
'footballer'
"""

from __future__ import annotations

import re

from seekgraph.common.text import word_set
from seekgraph.synth.noun_classes import CLASSES, ROLES, noun_classes
from seekgraph.synth.phrasing.words import plural, singular

# Words that end the noun phrase after "is a": prepositions, relative words, conjunctions and
# the participles that start a modifier ("a film directed by", "a club based in").
_STOPS = word_set(
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
# "a group of three towers", "a complex of residential towers", "a regional network of three
# television stations" (a station's page that speaks for its network): the towers, the
# stations are what it is
_COLLECTIVE = re.compile(
    r"^(?:group|complex|pair|cluster|set|collection|(?:[a-z]+\s+){0,2}network)\s+of\s+"
    r"(?:(?:two|three|four|five|six|seven|eight|nine|ten|several|many|\d+)\s+)?",
    re.IGNORECASE,
)
# a tokenised full stop (" . "), or one with no space before the next sentence ("an Indian
# politician.He was elected")
_SENTENCE_END = re.compile(r"(?<=[a-z\)\]]{2}) \. |(?<=[a-z]{3})\.(?=[A-Z][a-z])")
_NOT_NOUNS = word_set(
    """former retired professional american british english held located situated used
    given defined known formed created designed developed maintained contested licensed
    named called considered listed based the a an this that"""
)

# compound adjectives that end a word of a noun phrase ("Cape Town-based", "state-owned")
_COMPOUND_ADJECTIVES = ("-based", "-owned", "-listed", "-headquartered", "-born")
_ARTICLES = word_set("the a an his her its their this that these those")
# nouns ending in -ing, not participles ("a historical Masonic building in")
_ING_NOUNS = word_set(
    """building painting recording wedding ring string thing king wing spring morning evening
    clothing ceiling dwelling housing landing crossing meeting offering setting ending opening
    heading lightning pudding sibling viking ling duckling boxing kickboxing wrestling"""
)

# Head nouns that say how a page is written, not what its subject is ("a list of films").
_NOT_KINDS = word_set(
    "list name nickname term type kind form part sort variety number overview result example "
    "art"  # uncountable: "public art" lists sculptures and murals, never "arts"
)


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
_IRREGULAR_PARTICIPLES = word_set(
    """fought built held won made born known written drawn given taken shown sold led run
    begun set put bought brought taught sent spent kept lost laid paid hung struck sung
    spoken chosen driven broken stolen frozen hidden ridden woven beaten eaten fallen
    forgotten shaken sworn worn torn grown thrown flown blown seen proven risen bitten"""
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
_TRACK_AND_FIELD = re.compile(r"\b(track and field|mixed martial arts?)\b", re.IGNORECASE)


_REPRESENTS = re.compile(
    r"\b(team|club|squad|side)\s+(?:represents|represented|competes|competed|plays|played)\b",
    re.IGNORECASE,
)
_SPORTS = word_set(
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
    >>> page_kind("Guiding Light is an American television soap opera .")
    'series'
    >>> page_kind("NBC Montana is a regional network of three television stations in Montana .")
    'station'
    >>> page_kind("Kanon is a Japanese visual novel developed by Key .")
    'game'
    >>> page_kind("K-1 PREMIUM 2005 Dynamite!! was an annual kickboxing and mixed martial arts event")
    'event'
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
    # compounds the noun phrase holds whole: "a Maltese born athlete", "a track and field
    # athlete", "a kickboxing and mixed martial arts event"
    phrase = _BORN.sub(r"\1-born", _TRACK_AND_FIELD.sub(lambda m: m[1].replace(" ", "-"), phrase))
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
    if head == "opera" and len(words) > 1 and words[-2].lower() == "soap":
        head = "series"  # "an American television soap opera": a series, not an opera
    if head == "novel" and len(words) > 1 and words[-2].lower() == "visual":
        head = "game"  # "a Japanese visual novel": a video game, not a book
    if head.endswith("sery"):
        head = head[: -len("sery")] + "series"  # "miniseries", not "minisery"
    if not re.fullmatch(r"[a-z][a-z-]*", head) or head in _NOT_KINDS:
        return None
    return head


# sections that name the players of a team ("Team roster", "Current squad")
_ROSTER = word_set("roster rosters squad squads lineup line-up")


# words before a section's plural that say which of them it holds, not what they are
_QUALIFIERS = word_set("notable other selected major famous former current principal some early")


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
        if said and said[-1].endswith("s") and singular(said[-1]) in ROLES:
            return singular(said[-1]), said[-1]
        if set(said) & _ROSTER:
            return "player", "players"
    return None


_LIST_OF = re.compile(r"^\s*(?:lists?|index|outline)\s+of\s+(?:the\s+)?(.+)$", re.IGNORECASE)


# the National Register of Historic Places lists properties (houses, depots, districts alike)
_REGISTER = re.compile(r"\bRegister of Historic Places\b", re.IGNORECASE)


# participles a list's title may put after its noun that a first sentence uses as nouns
# ("List of programs broadcast by Showtime"; "a weekly radio broadcast")
_TITLE_PARTICIPLES = frozenset(["broadcast"])


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
    >>> title_kind("List of programs broadcast by Showtime")
    ('program', 'programs')
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
        verbal = _verbal(low) or low in _TITLE_PARTICIPLES
        if token in _PUNCT or low in _STOPS or (words and token.islower() and verbal):
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
