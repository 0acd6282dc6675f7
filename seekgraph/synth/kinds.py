"""What the answers of a question are, read from their own pages, not from a table's header.

A header names a column ("School", "Name", "Player"), not what its cells are: a column headed
"School" may list basketball seasons. An entity's own page says what it is in its first
sentence: "Adriano ( born 29 May 1987 ) is a Brazilian professional footballer who ..." →
*footballer*. `seekgraph.synth.head_nouns` reads that head noun (and a list title's or a
section's); `seekgraph.synth.noun_classes` holds the classes of nouns (people, places, works,
...) the nouns fall in. This module decides the kind over them.

`answers_kind` decides the kind a question names from all its answers (O(n)):

0. films and television shows together, each a sixth of the answers whose pages say or more
   and together four in five of them (a filmography): "productions", whatever the header
   says;
1. a noun most answers (more than half of all, pages or not) share: the key header's own word
   when it names the same noun or the same class ("Laureate" for writers), else that noun
   when four in five of the answers whose pages say are of it (six skiers beside an ice
   hockey player and a coach are people: step 2);
   a generic header ("Name") lends the word of a "List of X" title instead ("alumni"); when
   not every page is of that noun and some say the title's X, X (a list's title says what
   every row is: "List of power stations in Oregon" of twelve dams and a power station);
2. else a class most answers share (people, places): that word when it is of that class, else
   "people" or "places". In a class of rival types (works, sites, places, events) a word
   naming one type ("Film") speaks only for answers mostly of it: series are "shows";
3. else the header's or title's word when some pages are of it and no more are of another
   class (a telecom provider, a retailer and a goods company listed by "Company"); a bare
   header or title when no page says;
4. else no common kind: the question says so plainly (`Kind.named` is false).

>>> answers_kind(["footballer", "footballer", "coach"], ("player", "players")).plural
'players'
>>> answers_kind(["season", "season", "season"], ("school", "schools")).plural
'seasons'
>>> answers_kind(["dam"] * 12 + ["station", "lake"], None, "List of power stations in Oregon").plural
'stations'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from seekgraph.synth.head_nouns import section_kind, title_kind
from seekgraph.synth.noun_classes import CLASSES, GENERAL, RIVALS, ROLES, noun_classes
from seekgraph.synth.phrasing.header_kind import GENERIC_KIND
from seekgraph.synth.phrasing.words import plural, singular


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


def _role_part(kind: tuple[str, str] | None) -> tuple[str, str] | None:
    """The first part of an "A or B" header's kind when it names a role ("guests or
    segments" → guests)."""
    if kind is None or " or " not in kind[0]:
        return None
    first, first_plural = kind[0].split(" or ")[0], kind[1].split(" or ")[0]
    return (first, first_plural) if singular(first.split()[-1]) in ROLES else None


def _same_noun(named: str, noun: str) -> bool:
    """`noun` is a `named` ("racehorse" is a horse, "outfielder" a fielder)."""
    return noun == named or (len(named) > 3 and noun.endswith(named))


def _class_counts(known: Sequence[str]) -> Counter[str]:
    return Counter(c for k in known for c in noun_classes(k))


def _fits(named: str, noun: str) -> bool:
    """A page's `noun` is a `named`: the same noun, or a noun of one of its classes (of a
    class of rival types only when `named` names the whole class: a series is no film)."""
    if named in ROLES:
        return True
    shared = set(noun_classes(named)) & set(noun_classes(noun))
    return _same_noun(named, noun) or any(
        cls not in RIVALS or named == cls or named in GENERAL[cls] for cls in shared
    )


def _uncontradicted(named: str, known: Sequence[str]) -> bool:
    """Some pages are a `named` and no more are of a class it is not, or no page is of a class
    at all (pages of no known class, "a wireline provider", "an agriculture business", "a
    hypothetical concept", count neither way: the header or title is all that says)."""
    fit = sum(_fits(named, k) for k in known)
    against = sum(1 for k in known if noun_classes(k) and not _fits(named, k))
    return fit >= against and (fit > 0 or against == 0)


def _wider_word(
    said: tuple[str, str] | None, head: str, top: str, known: Sequence[str]
) -> tuple[str, str] | None:
    """The title's or section's word `said` in place of a key header's `head` that most pages
    share (`top`) when two or more pages say another noun of no class of its: "Battle" over
    fifteen battles and four massacres is false for four, "List of major engagements" says
    what all of them are.

    >>> _wider_word(("engagement", "engagements"), "battle", "battle",
    ...             ["battle"] * 15 + ["massacre"] * 4)
    ('engagement', 'engagements')
    >>> _wider_word(("engagement", "engagements"), "battle", "battle", ["battle"] * 19) is None
    True
    >>> _wider_word(("champion", "champions"), "car", "car", ["car"] * 14 + ["version", "line"])
    """
    said_head = _head(said)
    if said is None or said_head is None or _same_noun(head, said_head) or said_head in ROLES:
        return None  # "List of BTCC champions" over cars: a role, not what the cars are
    if noun_classes(said_head) and not set(noun_classes(said_head)) & set(noun_classes(top)):
        return None  # a word of another class of things is no wider word for these
    unlike = [
        k
        for k in known
        if not _same_noun(top, k) and not set(noun_classes(k)) & set(noun_classes(top))
    ]
    return said if len(unlike) >= 2 and not any(_same_noun(said_head, k) for k in unlike) else None


def _speaks_for(named: str, cls: str, known: Sequence[str]) -> bool:
    """A header's or title's noun may name answers of class `cls` whose most common noun is
    `known`: it is of that class and, in a class of rival types, it names the whole class or
    no page noun is more common than those it names ("churches" for cathedrals and a church)."""
    if cls not in noun_classes(named):
        return False
    return (
        cls not in RIVALS
        or named == cls
        or named in GENERAL.get(cls, frozenset())
        or _plurality(named, known)
    )


def _plurality(named: str, known: Sequence[str]) -> bool:
    own = set(noun_classes(named)) - RIVALS
    fit = sum(_same_noun(named, k) or bool(own & set(noun_classes(k))) for k in known)
    return fit >= Counter(known).most_common(1)[0][1]


# page nouns that name a role a thing has, not the thing: "Bandung is the capital of West
# Java" is a city, as a header "City" says
_ROLE_NOUNS = {"capital": "city"}


def _page_nouns(page_kinds: Sequence[str | None]) -> list[str]:
    """The nouns the pages say, singular, a role read as the kind it is of (`_ROLE_NOUNS`).

    >>> _page_nouns(["capitals", None, "city"])
    ['city', 'city']
    """
    nouns = [singular(k) for k in page_kinds if k]
    return [_ROLE_NOUNS.get(n, n) for n in nouns]


# nouns of a film and of a television show: a filmography lists both
_FILMS = frozenset(["film", "movie", "telefilm"])
_SCREEN_SHOWS = CLASSES["show"][1] - {"documentary"}  # a documentary may be either


def _films_and_shows(known: Sequence[str]) -> bool:
    """Films and television shows in one list, each at least a sixth of the answers whose
    pages say and together four in five of them (a pilot, an adaptation beside them):
    neither "films" nor "shows" is true of the list ("Which films are listed in Crystal
    Hunt's filmography" answered by soap operas), a "production" is.

    >>> _films_and_shows(["film"] * 4 + ["series"] * 3), _films_and_shows(["film"] * 9 + ["series"])
    (True, False)
    """
    films = sum(k in _FILMS for k in known)
    shows = sum(k in _SCREEN_SHOWS for k in known)
    return 6 * min(films, shows) >= len(known) > 0 and 5 * (films + shows) >= 4 * len(known)


# pages must speak for at least one answer in this many before they overrule the header
FEW_PAGES = 4


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
    retailers, holdings are companies); when no page says, or pages say for fewer than one
    answer in `FEW_PAGES`, it is all there is (and with no such word, the answers have no
    common kind)."""
    known = _page_nouns(page_kinds)
    # the title speaks for the key column only when its header names no kind of its own
    # ("Name"); a "List of football champions" keyed by "Top scorer" lists scorers
    titled = title_kind(title)
    said = titled or section_kind(section)
    own = header_kind if _head(header_kind) is not None else said
    # a list's title says what the list holds ("List of Hawaiian royal residences": palaces,
    # mansions, estates): it speaks for answers mostly of its class, rival types or not
    listed = own is not None and (own is not header_kind or tuple(own) == said)
    role = _role_part(header_kind)
    if own is None and role is not None:
        own = role  # "Guests/Segments": the rows that are not guests have no page
    own_head = _head(own)
    named = [(own, own_head)] if own is not None and own_head is not None else []
    if FEW_PAGES * len(known) < len(page_kinds):
        # one page in twenty says "village" (a registered property whose cell links its
        # village): too few pages speak to overrule the header's or the title's word, or to
        # name the rest when nothing else does (two "in-jokes" among twenty fictional metals)
        if not named:
            return NO_KIND
        kind = named[0][0]
        return Kind(kind[0], kind[1], "header")
    if not known:
        for kind, _ in named[:1]:
            return Kind(kind[0], kind[1], "header")
        return NO_KIND
    if _films_and_shows(known):
        return Kind("production", "productions", "class")
    top, count = Counter(known).most_common(1)[0]
    classes = _class_counts(known)
    if _majority(count, len(known)):
        for kind, head in named:
            shared = [c for c in noun_classes(top) if _speaks_for(head, c, known)]
            # pages that say only "an administrative division" under a "Region" header: the
            # header's word is the more exact one
            general = [c for c in noun_classes(top) if top in GENERAL.get(c, frozenset())]
            if _same_noun(head, top) or shared or set(general) & set(noun_classes(head)):
                wider = _wider_word(said, head, top, known) if kind is header_kind else None
                if wider is not None:
                    return Kind(wider[0], wider[1], "header")
                return Kind(kind[0], kind[1], "header")
        # "List of power stations in Oregon" of twelve dams and a power station, a lake and
        # two projects: the list says what every row is, and some pages say it too; the
        # pages' most common noun says only what most are
        some = own_head is not None and any(_same_noun(own_head, k) for k in known)
        if own is not None and own == titled and some and count < len(known):
            return Kind(own[0], own[1], "header")
        one_kind = count == len(known) or classes.get("person", 0) == len(known)
        if own is not None and own is header_kind and own_head in ROLES and one_kind:
            # "Winner" over six snowboarders: the table lists runners-up too, all snowboarders;
            # the role says which of them the rows are
            return Kind(own[0], own[1], "header")
        if 5 * count >= 4 * len(known):
            return Kind(top, plural(top), "pages")
        # "skiers" for six skiers, an ice hockey player and a coach: the pages' noun is not
        # what a fourth of the answers are; their class is (below)
    held = [cls for cls in CLASSES if _majority(classes.get(cls, 0), len(known))]
    for kind, head in named:
        if any(
            _speaks_for(head, cls, known) or (listed and cls in noun_classes(head)) for cls in held
        ):
            return Kind(kind[0], kind[1], "header")
    for cls in held:
        others = [k for k in known if noun_classes(k) and cls not in noun_classes(k)]
        for kind, head in named:
            if others and head in ROLES and _uncontradicted(head, known):
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
    title's word over pages of many fine-grained kinds); true when pages speak for fewer than
    one answer in `FEW_PAGES`; with `listed` (the word is what the table's title or section
    says it lists), true when most are of its class."""
    words = named_plural.split()
    if not words or words[-1].lower() == GENERIC_KIND[1] or " or " in named_plural:
        return False
    known = _page_nouns(page_kinds)
    if not known or FEW_PAGES * len(known) < len(page_kinds):
        return True  # too few pages speak to contradict the word (as in `answers_kind`)
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
