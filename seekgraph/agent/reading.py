"""Reading tool responses as an agent reads them: search hits, visited pages, table rows.

The question-only teacher (`seekgraph.agent.teacher`) knows nothing but the question and the
text its tools returned; everything it learns passes through these functions, which parse the
response text exactly as the agent sees it (`seekgraph.agent.web.tools`: a search lists
``N. [title](url)`` and a snippet per hit; a visit prints ``Evidence in page:`` with the
page's lines in page order, a table row as ``a | b | c`` under its header row). A response cut
short (``[... N characters cut]``) is read as far as it goes.

Values are compared by `value_key`: normalised, with bracketed notes and a few words that only
qualify a name ("language", "Republic of") dropped, so "Bulgarian language" matches the cell
"Bulgarian" and "English (de facto)" matches "English language", as a reader would match them.

>>> t = parse_table("Prizes\\nYear | Author\\n1980 | William Golding\\n1981 | Salman Rushdie")
>>> t.header, t.column("author")
(('Year', 'Author'), 1)
>>> [r[1] for r in t.rows]
['William Golding', 'Salman Rushdie']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from seekgraph.common.text import normalize
from seekgraph.synth.ingest.records import Cell
from seekgraph.synth.key_score import column_stats

SEPARATOR = "\n=======\n"
_HIT = re.compile(r"^\d+\. \[(?P<title>.*)\]\((?P<url>[^)\s]*(?:\([^)\s]*\)[^)\s]*)*)\)$")
_VISIT = re.compile(r"^The useful information in (?P<url>\S+) for user goal ")
_CUT = re.compile(r"\n?\[\.\.\. \d+ characters cut\]\s*$")
_BRACKETS = re.compile(r"\([^)]*\)|\[[^\]]*\]")
# words that qualify a name without changing what it names ("Korean language" is "Korean")
QUALIFIERS = frozenset(
    ["language", "languages", "republic", "of", "the", "de", "facto", "official"]
)
# the few names of one column a reader knows to be the same
SYNONYMS = (
    frozenset({"country", "nationality", "nation", "citizenship", "citizen"}),
    frozenset({"work", "title", "novel", "book"}),
    frozenset({"born", "birth", "birthyear"}),
    frozenset({"birthplace", "place"}),
    frozenset({"published", "publication"}),
    frozenset({"genre", "genres"}),
)


@dataclass(frozen=True)
class Hit:
    """One search result as the agent saw it."""

    query: str
    rank: int
    title: str
    url: str
    snippet: str


@dataclass(frozen=True)
class VisitedPage:
    """One page of a visit response: its URL and the evidence lines it showed."""

    url: str
    lines: tuple[str, ...]
    cut: bool  # the response was cut short before this page's evidence ended


@dataclass(frozen=True)
class Table:
    """The rows of a table as a visit showed them (cells padded to the header's width)."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def column(self, words: str, values: Iterable[str] = ()) -> int | None:
        """The column `words` names (header word overlap, with `SYNONYMS` and abbreviations);
        when no header matches, the column holding most of `values`; None when neither finds
        one."""
        wanted = _stems(words)
        best, best_score = None, 0.0
        for j, name in enumerate(self.header):
            have = _stems(name)
            if not have or not wanted:
                continue
            score = len(wanted & have) / len(wanted | have)
            if score == 0 and (
                any(wanted & group and have & group for group in SYNONYMS)
                or _abbreviates(have, wanted)
            ):
                score = 0.5
            if score > best_score:
                best, best_score = j, score
        if best is not None:
            return best
        keys = {value_key(v) for v in values} - {""}
        counts = [sum(value_key(r[j]) in keys for r in self.rows) for j in range(len(self.header))]
        if keys and max(counts, default=0) > 0:
            return counts.index(max(counts))
        return None

    def named_column(self, noun: str) -> int | None:
        """The column whose header names `noun` ("winners": "Winner"), or None."""
        j = self.column(noun) if noun else None
        return j if j is not None and _stems(noun) & _stems(self.header[j]) else None

    def key_column(self, noun: str = "") -> int:
        """The column of the entities the table lists: the one `noun` names ("authors"), else
        the best key column by `seekgraph.synth.key_score`'s score (no links in page text)."""
        j = self.named_column(noun)
        if j is not None:
            return j
        stats = column_stats(list(self.header), [[Cell(c) for c in r] for r in self.rows])
        return max(stats, key=lambda s: (s.score, -s.index)).index if stats else 0


def _abbreviates(header: set[str], words: set[str]) -> bool:
    """Whether a header word of three letters or more is the start of a word the question
    says, or the other way round: "Conf" is the conference, "Pos" the position.

    >>> _abbreviates({"conf"}, {"conference"}), _abbreviates({"post"}, {"position"})
    (True, False)
    """
    return any(
        min(len(h), len(w)) >= 3 and h != w and (w.startswith(h) or h.startswith(w))
        for h in header
        for w in words
    )


def _stems(text: str) -> set[str]:
    """Content words of a header or phrase, plural 's' dropped."""
    out = set()
    for w in normalize(_BRACKETS.sub(" ", text)).split():
        if w in {"the", "their", "of", "they", "were", "was", "where", "year", "s"}:
            continue
        if len(w) > 4 and w.endswith("ies"):
            w = w[:-3] + "y"
        elif len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
            w = w[:-1]
        out.add(w)
    if not out:  # "Year" alone names a column too
        out = {w for w in normalize(text).split() if w not in {"the", "their"}}
    return out


def value_key(text: str) -> str:
    """The matching key of a value or a cell: normalised, brackets and `QUALIFIERS` dropped.

    >>> value_key("English (de facto)") == value_key("English language") == "english"
    True
    """
    words = normalize(_BRACKETS.sub(" ", text)).split()
    kept = [w for w in words if w not in QUALIFIERS]
    return " ".join(kept or words)


def parse_search(text: str) -> list[Hit]:
    """The hits of a search response, in order (a query without results gives none)."""
    hits: list[Hit] = []
    for part in _CUT.sub("", text).split(SEPARATOR):
        head = re.match(r"A Google search for '(.*)' found \d+ results:", part)
        if head is None:
            continue
        lines = part.splitlines()
        for i, line in enumerate(lines):
            m = _HIT.match(line.strip())
            if m is None:
                continue
            snippet = lines[i + 1].strip() if i + 1 < len(lines) else ""
            if _HIT.match(snippet):
                snippet = ""
            rank = int(line.split(".", 1)[0])
            hits.append(Hit(head.group(1), rank, m.group("title"), m.group("url"), snippet))
    return hits


def parse_visit(text: str) -> list[VisitedPage]:
    """The pages of a visit response that were read (an unreadable URL gives no lines)."""
    cut = _CUT.search(text) is not None
    parts = _CUT.sub("", text).split(SEPARATOR)
    out = []
    for k, part in enumerate(parts):
        m = _VISIT.match(part)
        if m is None:
            continue
        if "could not be accessed" in part:
            out.append(VisitedPage(m.group("url"), (), False))
            continue
        body = part.split("Evidence in page: \n", 1)
        evidence = body[1].split("\n\nSummary: \n", 1)[0] if len(body) == 2 else ""
        lines = tuple(ln.strip() for ln in evidence.splitlines() if ln.strip())
        out.append(VisitedPage(m.group("url"), lines, cut and k == len(parts) - 1))
    return out


def parse_table(evidence: str | Sequence[str]) -> Table | None:
    """The table in a page's evidence: the first ``a | b`` line is the header, every later
    such line a row. None when the evidence shows no table."""
    lines = evidence.splitlines() if isinstance(evidence, str) else list(evidence)
    cells = [[c.strip() for c in ln.split("|")] for ln in lines if "|" in ln]
    if len(cells) < 2:
        return None
    header = tuple(cells[0])
    while header and not header[-1]:
        header = header[:-1]
    width = len(header)
    if width < 2:
        return None
    rows = []
    for row in cells[1:]:
        row = (row + [""] * width)[:width]
        if any(row):
            rows.append(tuple(row))
    return Table(header, tuple(rows))


def mentions(text: str, name: str) -> bool:
    """Whether `name` occurs in `text` as whole words (after `value_key` on both)."""
    key = value_key(name)
    return bool(key) and f" {key} " in f" {value_key(text)} "


def split_cell(cell: str) -> list[str]:
    """A cell's values: "Novel, short story" holds two."""
    parts = [p.strip() for p in cell.replace(";", ",").split(",") if p.strip()]
    return parts or ([cell] if cell else [])


def cell_in(cell: str, keys: set[str]) -> bool:
    return value_key(cell) in keys or any(value_key(p) in keys for p in split_cell(cell))


def bare(value: str) -> str:
    """A value without the words that only qualify it (`QUALIFIERS`)."""
    return " ".join(w for w in value.split() if w.lower() not in QUALIFIERS) or value
