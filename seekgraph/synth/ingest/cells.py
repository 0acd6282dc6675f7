"""Reading one table cell: the words of its text, the names it gives, and cells that stand for
no value. The lowest of the cell modules, it holds the word helpers they share.

The cell modules, lowest first: this one (words and names), `cell_links` (which of a cell's
links name what it says), `cell_lists` (whether a cell lists several things) and `key_cells`
(what a key cell's row is about), which builds on the other three.

Rules (each tested in `tests/test_ingest_cells.py` on cells from several corpora):

- **Names.** An entity's name comes from its id alone (``/wiki/Disgrace_(novel)`` → ``Disgrace``:
  underscores to spaces, the parenthesised disambiguator stripped), so no table's mention can
  rename it; the disambiguator stays in the id.

>>> display_name("/wiki/Disgrace_(novel)")
'Disgrace'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from seekgraph.synth.ingest.records import title_from_id

_DISAMBIGUATOR = re.compile(r"\s*\([^()]*\)\s*$")
WORD_PATTERN = re.compile(r"\w+")
STOP_WORDS = frozenset(
    [
        "the",
        "of",
        "and",
        "a",
        "an",
        "in",
        "on",
        "at",
        "for",
        "to",
        "de",
        "la",
        "le",
        "el",
        "da",
        "van",
        "von",
        "der",
    ]
)
BLANK_KEYS = frozenset(
    [
        *["", "-", "--", "—", "–", "n/a", "na", "tba", "tbd", "?", "none", "…", "unknown"],
        *["vacant", "unlisted", "not applicable"],
    ]
)


def fold_text(text: str) -> str:
    """`text` lower-cased without accents, so "Pelé" and "Pele" compare equal."""
    text = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in text if not unicodedata.combining(ch)).lower()


def folded_words(text: str) -> list[str]:
    """The words of `text`, folded (`fold_text`)."""
    return WORD_PATTERN.findall(fold_text(text))


def strip_disambiguator(title: str) -> str:
    """``Disgrace (novel)`` → ``Disgrace``; a title that is only parentheses stays."""
    stripped = _DISAMBIGUATOR.sub("", title).strip()
    return stripped or title.strip()


_ENUMERATION = re.compile(r"^\s*\(?\d{1,3}\s*[-.)–]\s+")
# a mark before a name pointing to a legend ("* Taga-jō Site": a special historic site)
_LEAD_MARK = re.compile(r"^\s*[*†‡§¶]+\s*")  # ("#Y" is a film's title: "#" stays)
# a place after a name that tells it from others of the name ("First Baptist Church (Amarillo,
# Texas)" beside "First Baptist Church (Stamford, Texas)"): part of the name, not a note
_PLACE_QUALIFIER = re.compile(r"\(\s*[A-Z][\w.'’ -]*\s*,\s*[A-Z][\w.'’ -]*\)\s*$")
# a form of address before a name ("Honourable Darrel Cunningham", "The Hon. John Smith")
_HONORIFIC = re.compile(
    r"^(?:the\s+)?(?:(?:right|rt\.?)\s+)?(?:honou?rable|hon\.)\s+(?=[A-Z])", re.IGNORECASE
)
# "Andrew C. Maxwell House -demolished", "Old Mill (destroyed)": what became of it, after a dash
# or in brackets at the end of an unlinked name
_STATUS_NOTE = re.compile(
    r"\s*(?:[-–—]\s*|\(\s*)(?:now\s+)?(?:demolished|destroyed|razed|burned|burnt|closed|defunct|"
    r"removed|relocated|moved|delisted|ruined|abandoned)(?:\s+(?:in\s+)?\d{4})?\s*\)?\s*$",
    re.IGNORECASE,
)
# a note on the thing after its name, a clause after a comma ("Vestre Aker kirke, changed name
# to Ullevålsalleen before closure"); a comma before a name ("Paris, Texas") stays
_CLAUSE_NOTE = re.compile(r",\s+[a-z][\w'’-]*(?:\s+\S+){2,}$")
# another name given after the name ("Graves' disease - also called Basedow syndrome",
# "Ceylon, also known as Sri Lanka"): the row's thing is named by the first
_ALSO_CALLED = re.compile(
    r"\s*(?:[-–—,;]\s*|\(\s*)(?:also\s+)?(?:called|known\s+as|aka)\s+[^()]+\)?\s*$", re.IGNORECASE
)
# Chinese, Japanese or Korean script: a name's original beside its English one
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def unlinked_name(text: str) -> str:
    """The name of an unlinked key cell: list numbers and trailing parentheses dropped, and
    the original script and its reading after an English name (``10- Hung Hing Ying Building
    (1919)`` → ``Hung Hing Ying Building``; ``Enokida Barrier Site 榎田関跡 Enokida seki ato`` →
    ``Enokida Barrier Site``).

    >>> unlinked_name("Enokida Barrier Site 榎田関跡 Enokida seki ato")
    'Enokida Barrier Site'

    A note of what became of the thing after a dash is not its name:

    >>> unlinked_name("Andrew C. Maxwell House -demolished")
    'Andrew C. Maxwell House'
    >>> unlinked_name("Vestre Aker kirke, changed name to Ullevålsalleen before closure")
    'Vestre Aker kirke'
    >>> unlinked_name("Graves' disease - also called Basedow syndrome")
    "Graves' disease"
    >>> unlinked_name("Honourable Darrel Cunningham"), unlinked_name("The Hon. Jane Roe")
    ('Darrel Cunningham', 'Jane Roe')
    >>> unlinked_name("* Taga-jō Site"), unlinked_name("First Baptist Church ( Amarillo , Texas )")
    ('Taga-jō Site', 'First Baptist Church ( Amarillo , Texas )')

    A name written twice (a hidden sort key before the shown name) is one name:

    >>> unlinked_name("Why Ancient Egypt Fell Why Ancient Egypt Fell")
    'Why Ancient Egypt Fell'
    >>> unlinked_name("Colbert Report, The The Colbert Report")
    'The Colbert Report'
    """
    latin = before_script(text)
    text = undoubled(latin if WORD_PATTERN.search(latin) else text)
    text = _HONORIFIC.sub(
        "", _CLAUSE_NOTE.sub("", _STATUS_NOTE.sub("", _ALSO_CALLED.sub("", text)))
    )
    text = _LEAD_MARK.sub("", _ENUMERATION.sub("", text))
    if _PLACE_QUALIFIER.search(text):
        return " ".join(text.split())  # "First Baptist Church (Amarillo, Texas)": one of many
    return strip_disambiguator(text).strip() or text.strip()


# a credit before a name in a value ("Compiled by Zhang Liang" of a book's author)
_CREDIT = re.compile(
    r"^(?:compiled|edited|written|translated|illustrated|narrated)\s+by\s+(?=[A-Z])", re.IGNORECASE
)


def without_credit(text: str) -> str:
    """A value without the credit before its name: the author column says who, the credit how.

    >>> without_credit("Compiled by Zhang Liang"), without_credit("Written by the band")
    ('Zhang Liang', 'Written by the band')
    """
    bare = _CREDIT.sub("", text)
    return bare if bare != text and reads_as_a_name(bare.split()) else text


_PAIR = re.compile(r"^([^/]+?)\s+/\s+([^/]+)$")


def paired_names(name: str) -> tuple[str, ...]:
    """The two people of an unlinked key cell that names a pair as "A / B" (the pairs of a
    skating or dance result, whose linked cells are two entities already), else the name.
    Each side must read as a person's name: two to four words, each capitalised.

    >>> paired_names("Olga Neizvestnaya / Sergei Hudyakov")
    ('Olga Neizvestnaya', 'Sergei Hudyakov')
    >>> paired_names("Bosnia / Herzegovina"), paired_names("Song of the year / Album")
    (('Bosnia / Herzegovina',), ('Song of the year / Album',))
    """
    match = _PAIR.match(name)
    if not match:
        return (name,)
    sides = (match.group(1).strip(), match.group(2).strip())
    return sides if all(reads_as_a_name(side.split()) for side in sides) else (name,)


def reads_as_a_name(tokens: Sequence[str]) -> bool:
    """Two to four words, each capitalised: how a person's name reads (a pair's side, the
    second name a cell runs on with)."""
    return 2 <= len(tokens) <= 4 and all(t[:1].isupper() for t in tokens)


# "Surname, Given Given Surname": a sort key, then the name as shown
_SURNAME_FIRST = re.compile(r"(?P<s>[^,]+), (?P<g>\S+)(?: \S+)*? (?P<shown>(?P=g)\b.* (?P=s))")


def undoubled(text: str) -> str:
    """The shown name of a cell that holds it twice: ``A A`` (a sort key equal to the name) or
    ``B, The The B`` (a sort key with the article moved to the end); else the text. A name of
    one word said twice is a name ("Duran Duran").

    >>> undoubled("Duran Duran"), undoubled("New York New York")
    ('Duran Duran', 'New York')

    A person's sort key before the shown name ("Caffery, John John Jack Caffery") is dropped:

    >>> undoubled("Carlson, Fritz Fritz Carlson"), undoubled("Caffery, John John Jack Caffery")
    ('Fritz Carlson', 'John Jack Caffery')
    """
    words = text.split()
    half = len(words) // 2
    if half >= 2 and len(words) % 2 == 0 and words[:half] == words[half:]:
        return " ".join(words[:half])
    moved = re.fullmatch(r"(.+), (The|A|An) \2 \1", text.strip())
    if moved:
        return f"{moved.group(2)} {moved.group(1)}"
    sorted_by = _SURNAME_FIRST.fullmatch(" ".join(words))
    return sorted_by.group("shown") if sorted_by else text


def before_script(text: str) -> str:
    """The text before its first Chinese, Japanese or Korean character (all of it if none),
    without the bracket or dash that opened the cut part ("Kaisho (海翔)" -> "Kaisho").

    >>> before_script("Kaisho (海翔)"), before_script("Tokyo – 東京")
    ('Kaisho', 'Tokyo')
    """
    cut = _CJK.search(text)
    return text[: cut.start()].rstrip(" ([{–-—/,:;") if cut else text


def display_name(entity_id: str) -> str:
    """The surface name of an entity, from its id alone (see the module docstring)."""
    return strip_disambiguator(title_from_id(entity_id))


_PARENTHESES = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")


def outside_parentheses(text: str) -> str:
    """The text with every (nested) parenthesised or bracketed part removed."""
    previous = None
    while previous != text:
        previous, text = text, _PARENTHESES.sub(" ", text)
    return text


def content_words(text: str) -> list[str]:
    """The folded words of `text` without stop words ("of", "the", "de", "van")."""
    return [w for w in folded_words(text) if w not in STOP_WORDS]


def link_title_words(link: str) -> set[str]:
    """The content words of a link's page title, its disambiguator dropped."""
    return {
        w for w in folded_words(strip_disambiguator(title_from_id(link))) if w not in STOP_WORDS
    }


# an edition that was not run, said where its winner would stand ("Cancelled", "No race",
# "Cancelled due to World War II")
_CALLED_OFF = re.compile(
    r"(?:cancell?ed|canceled|abandoned|postponed|withheld|void|no (?:race|competition|contest"
    r"|tournament|award|winner|champion|event|games))(?:\s*[-–(,]?\s*(?:due to|because of"
    r"|owing to|as a result of)\b.*)?\)?"
)


def is_placeholder(text: str, header: str = "") -> bool:
    """True for a cell that stands for no value: blank, ``-``, ``—``, ``N/A``, ``TBA``, ``?``,
    "not arranged" or "not awarded", or its column's own header (a "Website" column whose
    cells read "Website": the link text of an external link, which the table's export
    dropped).

    >>> is_placeholder("??"), is_placeholder("– –"), is_placeholder("-- -"), is_placeholder("?!")
    (True, True, True, False)
    >>> is_placeholder("Cancelled"), is_placeholder("Cancelled due to World War II")
    (True, True)
    >>> is_placeholder("Cancel Culture"), is_placeholder("No Doubt")
    (False, False)
    >>> is_placeholder("Winner", "Eliminated by"), is_placeholder("Winner", "Eliminated")
    (True, False)
    >>> is_placeholder("Unlisted", "Register Number"), is_placeholder("not applicable")
    (True, True)
    >>> is_placeholder("Not listed"), is_placeholder("Not Known"), is_placeholder("Not Guilty")
    (True, True, False)
    >>> is_placeholder("living", "Died"), is_placeholder("Living", "Status")
    (True, False)
    """
    folded = fold_text(" ".join(text.split())).strip(" .:*")
    if re.fullmatch(r"(?:not|never) (?:arranged|held|awarded|contested|presented)", folded):
        return True  # "not arranged": no winner that season
    if re.fullmatch(r"not (?:listed|known|available|given|stated|reported)", folded):
        return True  # "Capacity: Not listed": the source has no value
    if _CALLED_OFF.fullmatch(folded):
        return True  # "Cancelled", "No race": that edition was not run
    if re.fullmatch(r"[?\-–—…]{2,}", folded.replace(" ", "")):
        return True  # "??", "---": a mark for no value, however many times it is written
    said = set(re.findall(r"[a-z]+", header.lower()))
    if folded in ("living", "alive", "still living") and said & {"died", "death", "deceased"}:
        return True  # "Died: living": no date of death yet
    # "Eliminated by: Winner" names the one nobody eliminated ("Eliminated: Winner" of a
    # contest's entrants is how far she got, and stays)
    eliminator = "eliminated by" in " ".join(header.lower().split())
    if folded in ("winner", "won", "champion") and eliminator:
        return True
    return folded in BLANK_KEYS or (bool(header) and folded == fold_text(" ".join(header.split())))
