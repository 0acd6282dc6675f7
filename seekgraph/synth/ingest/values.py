"""Typing and normalising unlinked cells: year, date (ISO), number, text.

A value's key is ``<kind>:<normalized>``, so "1,200" and "1200" meet on ``number:1200`` and
"23 October 1959" and "October 23 , 1959" on ``date:1959-10-23``. Text is NFKC-folded,
lower-cased and whitespace-collapsed (OTT-QA's tokenised spaces around punctuation removed).

>>> typed_value("October 23 , 1959")
('date', '1959-10-23')
>>> typed_value("1,200")
('number', '1200')
"""

from __future__ import annotations

import functools
import re
import unicodedata
from datetime import date

_MONTHS = {
    name: i + 1
    for i, name in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ]
    )
}
_MONTHS.update({k[:3]: v for k, v in list(_MONTHS.items())})
_MONTHS["sept"] = 9

_YEAR = re.compile(r"^(1[0-9]{3}|20[0-9]{2})$")
_ISO = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_DMY = re.compile(r"^(\d{1,2}) ([a-z]+)\.?,? (\d{4})$")
_MDY = re.compile(r"^([a-z]+)\.? (\d{1,2}),? (\d{4})$")
_NUMBER = re.compile(r"^[-+−]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$")
_SPACE_BEFORE = re.compile(r"\s+([,.;:!?%)\]}'])")
_SPACE_AFTER = re.compile(r"([(\[{])\s+")
# a contraction the tokeniser split ("Ca n't Back Down", "Would n't"): one word again
_SPLIT_NOT = re.compile(r"(?<=[^\W\d_])\s+(n['’]t)\b", re.IGNORECASE)
# how long ago a date was, as a page said it on the day it was read ("July 29, 2015; 4 years
# ago (2015-07-29)"): true that day only
_AGO = re.compile(
    r"\s*;\s*\d+\s+(?:years?|months?|weeks?|days?)\s+ago\s*(?:\(\s*[\d-]+\s*\))?$",
    re.IGNORECASE,
)
# a web address the tokeniser split after its scheme ("http: //www.emu.edu.tr")
_SPLIT_URL = re.compile(r"\b(https?):\s+//")
# a slash left before a name whose first half was an image ("/ Alexei Eremenko Sr")
_LEADING_SLASH = re.compile(r"^/\s+(?=\w)")
# a sort key printed before the text it sorts ("BB023 23rd Battalion" sorts by 023)
_SORT_CODE = re.compile(r"^[A-Z]{1,3}0*(\d+) (?=\1(?:st|nd|rd|th)\b)")
# a zero-padded sort key before a numbered unit ("026 90th Regiment of Foot")
_PADDED_KEY = re.compile(r"^0\d{1,3} (?=\d{1,3}(?:st|nd|rd|th)\b)")


def _sort_text_dropped(text: str) -> str:
    """`text` without a sort key of two or more words printed before the name it sorts, the
    key's words all in the name and the name starting as the key does ("Army Medical
    Department Army Medical Department", "Commissariat Department Commissariat and Transport
    Department"); one word twice may be a name ("Sirhan Sirhan").

    >>> _sort_text_dropped("Commissariat Department Commissariat and Transport Department")
    'Commissariat and Transport Department'
    >>> _sort_text_dropped("Sirhan Sirhan"), _sort_text_dropped("New York New York")
    ('Sirhan Sirhan', 'New York')
    """
    words = text.split()
    for i in range(2, len(words) // 2 + 1):
        key, name = words[:i], words[i:]
        if name[0] == key[0] and set(key) <= set(name):
            return " ".join(name)
    return text


# a linked page's title with its disambiguation, printed after a value ("503 S. Main St.
# (Masonic Temple (Aberdeen, SD))"): the row's own thing, not part of the value
_LINK_TITLE_AFTER = re.compile(r"(?<=\S)\s*\([^()]*\([^()]*\)\)\s*$")
_TRAILING_SLASH = re.compile(r"(?<=\w)\s*/$")  # "McWolf/": a slash before a name the cell lost
# a place's coordinates after its name, as the {{coord}} template prints them (degrees, then the
# same in decimals, then "(Name)"): "Columbia 35°33′38′′N 87°09′12′′W / 35.56°N ... (Rattle and
# Snap)" is the town Columbia
_DMS = r"\d{1,3}°(?:\s*\d{1,2}(?:\.\d+)?′)?(?:\s*\d{1,2}(?:\.\d+)?(?:′′|″|\"))?\s*"
_DEGREES = r"-?\d{1,3}(?:\.\d+)?°\s*"
_COORDINATES = re.compile(
    rf"\s*(?:{_DMS}[NS]\s*{_DMS}[EW]|{_DEGREES}[NS]\s*{_DEGREES}[EW])"
    rf"(?:\s*/\s*{_DEGREES}[NS]\s*{_DEGREES}[EW])?"
    r"(?:\s*/\s*-?\d+(?:\.\d+)?\s*;\s*-?\d+(?:\.\d+)?)?(?:\s*\([^()]*\))?"
)
# a parenthesised mark for no value after a name ("Ashley Ona (n/a)": an amateur's prize money)
_NO_VALUE_NOTE = re.compile(r"\s*\(\s*(?:n/a|n\.a\.|tba|tbd|\?+)\s*\)$", re.IGNORECASE)


_WIKI_ATTRIBUTES = re.compile(
    r"^(?:\s*(?:align|style|class|colspan|rowspan|width|bgcolor|valign|data-sort-value)"
    r"\s*=\s*\"?[^|\"]*\"?\s*)+\|\s*",
    re.IGNORECASE,
)


# a hidden sort key before the shown value ("2009.1 2009": sorts as 2009.1, shows 2009)
_SORT_KEY = re.compile(r"^(\d+)\.\d+\s+(?=\1\b)")
# a year before the date that holds it, the date's sort key ("1840 21 November 1840")
_SORT_YEAR = re.compile(r"^(\d{4})\s+(?=(?:\d{1,2} [A-Za-z]+\.?|[A-Za-z]+\.? \d{1,2},?) \1$)")
# a sort key before a placing that ends in it ("208 8th in Yugoslav Div 2": division 2, 8th)
_SORT_PLACING = re.compile(r"^(\d{3})\s+(?=(\d{1,2})(?:st|nd|rd|th)\b)")
# an ISO date or month before the date it sorts ("1981-11-01 1 November 1981", "1955-09
# September 1955", "(1969-12-01) December 1, 1969" of a birth date and age)
_SORT_ISO = re.compile(r"^\(?\s*\d{4}-\d{2}(?:-\d{2})?\s*\)?\s+(?=\S.*\b\d{4}$)")
# a year's sort key before the year it sorts, or an approximate one ("1068 1068", "1100 c. 1100")
_SORT_SAME_YEAR = re.compile(r"^(\d{3,4})\s+(?=(?:c\.\s*|ca\.\s*|circa\s+)?\1$)")
# a tie marker before a rank ("=20": tied 20th)
_TIE = re.compile(r"^=\s*(?=\d+\s*$)")
# a link to another language's article ("Old Saale Bridge [de]", "[eo; hu]"): not part of a name
_INTERWIKI = re.compile(r"\s*\[\s*(?:\d{1,3}|[a-z]{1,3}(?:\s*[;,]\s*[a-z]{2,3})*)\s*\]")
# a footnote mark after a value or an item of a list ("1994 *", "Santana Moss †", "1972*,
# 1973"): a pointer to a legend, not text
_MARK = re.compile(r"(?<=[\w.)\]])\s*[*†‡§¶]{1,3}(?=\s*[,;]|$)")
# a sort key of zeros before a number and its unit ("0 930 AM", "00 88.7 FM": 930 AM, 88.7 FM)
_SORT_ZEROS = re.compile(r"^0+ (?=[1-9]\d*(?:\.\d+)? \D)")
# a footnote number after a season ("1978-791", "1997-98 1": the season 1978-79, note 1)
_SEASON_NOTE = re.compile(r"^(\d{4})([-–])(\d{2})\s?\d$")
# an age the page computed when it was shown, after a date of birth ("7 September 1956 (age
# 63)"): stale the year after, and it hides the date
_AGE = re.compile(r"(?<=\d)\s*\(\s*aged?\s+\d{1,3}\s*\)$")
# characters of no width a page's markup leaves between items ("D N R \u200b \u200b")
_ZERO_WIDTH = re.compile("[\u200b-\u200d\u2060\ufeff]")
# a register's reference number after the date it listed a place ("June 26, 2013 (# 13000406)")
_REFNUM = re.compile(r"\s*\(\s*#\s*\d{5,}\s*\)")


# a count of times after a name ("U.S. Open (6)": the sixth Open held there, "Marjo Matikainen
# (3)": her third title): a tally of the table's, not part of the name (a number after a
# number, "12 (3)" goals with penalties, stays)
_NTH_TIME = re.compile(r"(?<=[^\W\d_]|\.)\s*\(\s*\d{1,2}\s*\)$")
# an empty first item of a list (", 1999-2000")
_EMPTY_FIRST = re.compile(r"^[,;]\s*(?=\S)")
# a subway service's express mark beside its letter ("F < F > G": the F, also express)
_DIAMOND = re.compile(r"\s*<\s*[0-9A-Z]\s*>")
# a country named twice before its region's code, the flag's caption and the name ("United
# States United States (MA)" of a marathon's winners)
_FLAG_NAME = re.compile(r"^(.+?) \1( \(\s*[A-Z]{2,3}\s*\))$")


# memoised: ingest cleans each cell several times (its value, its fact's text, its column's words)
@functools.lru_cache(maxsize=1 << 16)
def clean_text(text: str) -> str:
    """Display form: NFKC, no zero-width characters, collapsed whitespace, no tokenised spaces
    before punctuation, no wiki cell attributes left by the table's export (``align=right| 0``
    → ``0``), no hidden sort key (``2009.1 2009`` → ``2009``, ``1840 21 November 1840`` →
    ``21 November 1840``, ``1100 c. 1100`` → ``c. 1100``), no tie marker (``=20`` → ``20``),
    no footnote mark (after a value or an item of a list), no tag of an article in another
    language (``Old Saale Bridge [de]`` → ``Old Saale Bridge``), no register reference number
    (``(# 13000406)``), no age after a date of birth (``(age 63)``) and no footnote number
    after a season (``1978-791`` → ``1978-79``), no tally of times after a name (``U.S. Open
    (6)`` → ``U.S. Open``), no express mark (``F < F > G`` → ``F G``), no country named twice
    before its region's code, no "(n/a)" after a name, no "; 4 years ago", no slash left by
    a dropped image; a contraction or a web address the tokeniser split is joined (``Ca n't``
    → ``Can't``, ``http: //`` → ``http://``); a bulleted list is a list of commas.

    >>> clean_text("1996.6 1996"), clean_text("=20"), clean_text("T-62")
    ('1996', '20', 'T-62')
    >>> clean_text("1840 21 November 1840"), clean_text("1910 May 6, 1910")
    ('21 November 1840', 'May 6, 1910')
    >>> clean_text("Drususbrücke [de]"), clean_text("Nai Ruo [eo; hu] (2003)")
    ('Drususbrücke', 'Nai Ruo (2003)')
    >>> clean_text("Peggy Lehner [ 5 ]"), clean_text("[ 6 ]")
    ('Peggy Lehner', '')
    >>> clean_text("June 26, 2013 (# 13000406)")
    'June 26, 2013'
    >>> clean_text("1994 *"), clean_text("Santana Moss†"), clean_text("*")
    ('1994', 'Santana Moss', '*')
    >>> clean_text("1972*, 1973, 2009 *, 2011"), clean_text("M*A*S*H")
    ('1972, 1973, 2009, 2011', 'M*A*S*H')
    >>> clean_text("D N R \u200b \u200b \u200b")
    'D N R'
    >>> clean_text("7 September 1956 (age 63)"), typed_value("7 September 1956 ( age 63 )")
    ('7 September 1956', ('date', '1956-09-07'))
    >>> clean_text("1981-11-01 1 November 1981"), clean_text("1931-12-11 19 November 1926")
    ('1 November 1981', '19 November 1926')
    >>> clean_text("(1969-12-01) December 1, 1969"), clean_text("( 1969-12-01 ) December 1, 1969")
    ('December 1, 1969', 'December 1, 1969')
    >>> clean_text("1953-08 August-September 1953"), clean_text("1999-00 1999")
    ('August-September 1953', '1999-00 1999')
    >>> clean_text("208 8th in Yugoslav Div 2"), clean_text("2008 8th place")
    ('8th in Yugoslav Div 2', '2008 8th place')
    >>> clean_text("1068 1068"), clean_text("1100 c. 1100"), clean_text("1068 1070")
    ('1068', 'c. 1100', '1068 1070')
    >>> clean_text("1978-791"), clean_text("1997-98 1"), clean_text("1999-2000"), clean_text("2001-09")
    ('1978-79', '1997-98', '1999-2000', '2001-09')
    >>> clean_text("0 930 AM"), clean_text("00 88.7 FM"), clean_text("0 1"), clean_text("0 - 2")
    ('930 AM', '88.7 FM', '0 1', '0 - 2')
    >>> clean_text("United States United States (MA)"), clean_text("Canada Canada (ON)")
    ('United States (MA)', 'Canada (ON)')
    >>> clean_text(", 1999-2000"), clean_text(",")
    ('1999-2000', ',')
    >>> clean_text("F < F > G"), clean_text("a <b> c")
    ('F G', 'a <b> c')
    >>> clean_text("U.S. Open ( 6 )"), clean_text("12 (3)"), clean_text("Fraser (2)")
    ('U.S. Open', '12 (3)', 'Fraser')
    >>> clean_text("• Su Chhe • Koi Jaane na")
    'Su Chhe, Koi Jaane na'
    >>> clean_text("Ca n't Back Down"), clean_text("Ashley Ona ( n/a )"), clean_text("(n/a)")
    ("Can't Back Down", 'Ashley Ona', '(n/a)')
    >>> clean_text("July 29, 2015 ; 4 years ago ( 2015-07-29 )")
    'July 29, 2015'
    >>> clean_text("/ Alexei Eremenko Sr"), clean_text("/"), clean_text("McWolf/")
    ('Alexei Eremenko Sr', '/', 'McWolf')
    >>> clean_text("28 GHz (??)"), clean_text("AC/DC")
    ('28 GHz', 'AC/DC')
    >>> clean_text("BB023 23rd Battalion"), clean_text("BB500 Auckland Regiment")
    ('23rd Battalion', 'BB500 Auckland Regiment')
    >>> clean_text("026 90th Regiment of Foot"), clean_text("Army Medical Department Army Medical Department")
    ('90th Regiment of Foot', 'Army Medical Department')
    >>> clean_text("Training School)"), clean_text("Keokuk (Verity (towboat))")
    ('Training School', 'Keokuk')
    >>> clean_text("Sirhan Sirhan"), clean_text("026 90")
    ('Sirhan Sirhan', '026 90')
    >>> clean_text("http: //www.emu.edu.tr"), clean_text("http : //www.emu.edu.tr")
    ('http://www.emu.edu.tr', 'http://www.emu.edu.tr')
    >>> clean_text("Columbia 35°33′38′′N 87°09′12′′W / 35.56°N 87.15°W / 35.56; -87.15 (Rattle)")
    'Columbia'
    >>> clean_text("51°30′N 0°7′W"), clean_text("12 °C")
    ('51°30′N 0°7′W', '12 °C')
    """
    text = " ".join(_ZERO_WIDTH.sub("", unicodedata.normalize("NFKC", text)).split())
    if "•" in text:  # "• Su Chhe • Koi Jaane na": a bulleted list, said as a list
        text = ", ".join(item.strip() for item in text.split("•") if item.strip())
    text = _INTERWIKI.sub("", _WIKI_ATTRIBUTES.sub("", text))
    text = _MARK.sub("", _AGE.sub("", _REFNUM.sub("", text).strip()))
    text = _TIE.sub("", _SORT_YEAR.sub("", _SORT_KEY.sub("", _SORT_ISO.sub("", text))))
    text = _SORT_SAME_YEAR.sub("", text)
    placing = _SORT_PLACING.match(text)
    if placing and placing.group(1).endswith(placing.group(2).zfill(2)):
        text = text[placing.end() :]
    text = _SORT_ZEROS.sub("", text)
    season = _SEASON_NOTE.match(text)
    if season and (int(season.group(1)) + 1) % 100 == int(season.group(3)):
        text = "".join(season.group(1, 2, 3))
    text = _FLAG_NAME.sub(r"\1\2", text)
    text = _DIAMOND.sub("", _NTH_TIME.sub("", text))
    text = _EMPTY_FIRST.sub("", text)
    text = _LEADING_SLASH.sub("", _AGO.sub("", text))
    text = _TRAILING_SLASH.sub("", text) if text.endswith("/") else text
    text = _SORT_CODE.sub("", text) if text[:1].isupper() else text
    text = _sort_text_dropped(_PADDED_KEY.sub("", text)) if " " in text else text
    if text.endswith(")") and text.count(")") > text.count("("):
        text = text[:-1].rstrip()  # "Des Moines Provisional Army Officer Training School)"
    text = _LINK_TITLE_AFTER.sub("", text)  # "Keokuk (George M. Verity (towboat))"
    text = _SPACE_BEFORE.sub(r"\1", _SPLIT_NOT.sub(r"\1", text))
    text = _SPLIT_URL.sub(r"\1://", text)  # after "http : //" lost the space before its colon
    text = _SPACE_AFTER.sub(r"\1", text)
    if "°" in text:  # a cell of coordinates alone keeps them
        text = _COORDINATES.sub("", text).strip() or text
    noted = _NO_VALUE_NOTE.sub("", text)
    return noted or text  # a cell of "(n/a)" alone keeps its text


def _date(y: int, m: int, d: int) -> str | None:
    try:
        return date(y, m, d).isoformat()
    except ValueError:
        return None


def typed_value(text: str) -> tuple[str, str]:
    """(kind, normalized) of a cell's text; kind is ``year``, ``date``, ``number`` or ``text``."""
    shown = clean_text(text)
    low = shown.lower()
    if _YEAR.match(low):
        return "year", low
    flat = low.replace(",", ", ").replace(" ,", ",")
    flat = " ".join(flat.replace(",", "").split())
    m = _ISO.match(low)
    if m:
        iso = _date(int(m[1]), int(m[2]), int(m[3]))
        if iso:
            return "date", iso
    m = _DMY.match(flat)
    if m and m[2] in _MONTHS:
        iso = _date(int(m[3]), _MONTHS[m[2]], int(m[1]))
        if iso:
            return "date", iso
    m = _MDY.match(flat)
    if m and m[1] in _MONTHS:
        iso = _date(int(m[3]), _MONTHS[m[1]], int(m[2]))
        if iso:
            return "date", iso
    if _NUMBER.match(low):
        number = low.replace(",", "").replace("−", "-").lstrip("+")
        if "." in number:
            number = number.rstrip("0").rstrip(".")
        return "number", number
    return "text", low


def value_id(kind: str, normalized: str) -> str:
    return f"{kind}:{normalized}"
