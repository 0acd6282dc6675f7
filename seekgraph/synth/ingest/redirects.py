"""One thing, one entity: links to a redirect or to a season's page resolved before ingest.

Tables of one series link one club under different page names: a redirect left by a rename
("Bình_Dương_F.C." in 2011, "Becamex_Bình_Dương_F.C." in 2012), a short form ("FC_Pakhtakor"
and "FC_Pakhtakor_Tashkent"), or the page of the club's season ("2013_Bradford_Bulls_season",
whose cell reads "Bradford Bulls"). Read as page ids they are different entities, so a Union
task's "listed in both" answer misses the club and a Reverse-Union task names it twice.

The pages say which links are one page: a crawl stores the text a redirect leads to under the
redirect's name too, so two page ids with the same opening text are one page. That alone also
joins things that a list page covers ("10 (MBTA bus)" and "112 (MBTA bus)" both lead to the list
of routes), so two ids are taken as one only when the words of one's title are among the
other's (`same_name`) or the opening gives the title as a name of its thing ("Helsingin
Jalkapalloklubi ..., commonly known as HJK Helsinki", `gives_name`), and never within a table
that lists both in different rows (`LinkResolver.resolve`). A season's page stands for its club
when the cell names the club. A key cell that names its page's thing by such a name ("Prince
Bira" linking Birabongse Bhanudej) is marked so (`LinkResolver.mark_aliases`): it keeps its
link where its words alone would read as naming something else.

The resolver changes a table's links before its content hash is taken: a table whose links
resolve differently (new pages read) is a new version of the table, rebuilt like an edit.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

from seekgraph.common.text import normalize
from seekgraph.synth.ingest.cell_links import names_link
from seekgraph.synth.ingest.cells import fold_text, outside_parentheses
from seekgraph.synth.ingest.records import Cell, PageRecord, RawTable, Unreadable, wiki_id

# words that say what kind of club a name is, not which one ("F.C.", "SC", "FK")
_CLUB_WORDS = frozenset(["fc", "sc", "afc", "cf", "fk", "ac", "sk", "cd", "the"])
_PARENTHESES = re.compile(r"\([^()]*\)")
_WORD = re.compile(r"\w+")
_SEASON = r"\d{4}(?:[–-]\d{2,4})?"
# "/wiki/2013_Bradford_Bulls_season", "/wiki/Bradford_Bulls_(2013_season)"
_SEASON_PAGE = (
    re.compile(rf"^/wiki/{_SEASON}_(?P<club>.+)_season$", re.IGNORECASE),
    re.compile(rf"^/wiki/(?P<club>.+)_\({_SEASON}_season\)$", re.IGNORECASE),
)
# a page of fewer words is a stub or a hatnote ("For the series, see ..."), shared by chance
MIN_WORDS = 5
# words of the page text a title is looked for in, to name a group by the page's own title
_OPENING_WORDS = 40


# one word in British and American spelling ("World Food Programme", "United Nations World
# Food Program")
_SPELLINGS = {
    "programme": "program",
    "centre": "center",
    "theatre": "theater",
    "organisation": "organization",
    "labour": "labor",
    "defence": "defense",
    "harbour": "harbor",
}


def name_words(title: str) -> frozenset[str]:
    """The words that tell a title's thing apart: folded, without disambiguator, dots or club
    words ("Khánh Hòa FC" and "Khatoco Khánh Hòa F.C." → {khanh, hoa} and {khatoco, khanh,
    hoa})."""
    words = normalize(_PARENTHESES.sub(" ", title).replace(".", "")).split()
    return frozenset(_SPELLINGS.get(w, w) for w in words if w not in _CLUB_WORDS)


def same_name(a: str, b: str) -> bool:
    """Two titles of one page name one thing when the words of one are among the other's.

    >>> same_name("FC Pakhtakor", "FC Pakhtakor Tashkent"), same_name("A12 road", "A13 road")
    (True, False)
    >>> same_name("London City SC", "London City (soccer club)")
    True
    >>> same_name("World Food Programme", "United Nations World Food Program")
    True
    """
    x, y = name_words(a), name_words(b)
    return bool(x and y) and (x <= y or y <= x)


def _text_key(text: str) -> str | None:
    words = text.split()
    if len(words) < MIN_WORDS:
        return None
    return hashlib.sha1(" ".join(words).encode("utf-8")).hexdigest()


@dataclass
class LinkResolver:
    """Page id → the id of the page it stands for (the group's own page); ids not in the map
    stand for themselves. Build it with `add_pages` from the pages of the run."""

    same_page: dict[str, str] = field(default_factory=dict)
    resolved: int = 0  # cells whose links changed, in the tables resolved so far
    # page id -> its opening, folded: where a page gives the other names of its thing
    openings: dict[str, str] = field(default_factory=dict)
    aliases: int = 0  # cells marked as naming their link by another name (`mark_aliases`)

    def add_pages(self, pages: Iterable[PageRecord | Unreadable]) -> LinkResolver:
        """Group the pages by opening text, then split each group into ids of one name (only
        ids, titles and openings are held: the corpus's texts are not kept in memory)."""
        by_text: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
        for page in pages:
            if not isinstance(page, PageRecord):
                continue
            opening = " ".join(page.text.split()[:_OPENING_WORDS])
            self.openings[page.page_id] = fold_text(opening)
            key = _text_key(page.text)
            if key is not None:
                by_text[key].append((page.page_id, page.title, opening))
        for group in by_text.values():
            if len(group) > 1:
                self._add_group(group)
        return self

    def _add_group(self, group: list[tuple[str, str, str]]) -> None:
        """Each id of the group whose title names what the group's own page names stands for
        that page (a star, not a chain: "Defensive lineman" and "Offensive lineman" both name
        "Lineman", not each other). `group`: (page id, title, opening) of one text."""
        titles = {page_id: title for page_id, title, _ in group}
        opening = group[0][2]
        own = min(titles, key=lambda i: _title_rank(titles[i], opening, i))
        folded = fold_text(opening)
        for page_id, title in titles.items():
            if page_id != own and (same_name(title, titles[own]) or gives_name(folded, title)):
                # "HJK Helsinki" for Helsingin Jalkapalloklubi: a name the opening gives it
                self.same_page[page_id] = own

    def page_of(self, link: str, cell: Cell) -> str:
        """The page `link` stands for in `cell`: the group's own page of a redirect; for a
        season's page, its club's when the cell links the club beside it ("Bradford Bulls
        (2013 season)" linking both; "Salford City Reds (2013 season)" linking the club under
        its new name, Salford Red Devils) or its text names only the club ("Bradford Bulls")."""
        link = self.same_page.get(link, link)
        for pattern in _SEASON_PAGE:
            match = pattern.match(link)
            if match is None:
                continue
            others = [self.same_page.get(o, o) for o in cell.links if not _season_link(o)]
            if len(cell.links) == 2 and len(others) == 1:
                return others[0]
            club = wiki_id(match["club"])
            club = self.same_page.get(club, club)
            said = name_words(cell.text)
            if said and not any(ch.isdigit() for ch in cell.text) and said <= name_words(club):
                return club
        return link

    def resolve(self, table: RawTable) -> RawTable:
        """`table` with each link replaced by the page it stands for, except where two rows of
        the table would then name one page through different links (the table lists them as
        two things: bus routes a list page covers, seasons of one club). A link that comes to
        name what another link of its cell names is dropped."""
        links = [link for row in table.rows for cell in row for link in cell.links]
        if not any(link in self.same_page or _season_link(link) for link in links):
            return table
        pages = [
            [[self.page_of(link, cell) for link in cell.links] for cell in row]
            for row in table.rows
        ]
        rows_of: dict[str, dict[str, set[int]]] = defaultdict(lambda: defaultdict(set))
        for r, row in enumerate(table.rows):
            for cell, cell_pages in zip(row, pages[r], strict=True):
                for link, page in zip(cell.links, cell_pages, strict=True):
                    rows_of[page][link].add(r)
        apart = {
            link
            for links in rows_of.values()
            if len(links) > 1 and len(set().union(*links.values())) > 1
            for link in links
        }
        rows = [
            [
                _resolved_cell(cell, cell_pages, apart)
                for cell, cell_pages in zip(row, row_pages, strict=True)
            ]
            for row, row_pages in zip(table.rows, pages, strict=True)
        ]
        changed = sum(
            new.links != old.links
            for new_row, old_row in zip(rows, table.rows, strict=True)
            for new, old in zip(new_row, old_row, strict=True)
        )
        if not changed:
            return table
        self.resolved += changed
        return replace(table, rows=rows)

    def says(self, link: str, text: str) -> bool:
        """Whether the opening of `link`'s page gives `text` as a name of its thing
        (`gives_name`)."""
        return gives_name(self.openings.get(link, ""), text)

    def mark_aliases(self, table: RawTable) -> RawTable:
        """`table` with each cell of one link whose text says none of the link's title words
        but which the page's opening gives as its thing's name marked `Cell.alias`: the cell
        names the page's thing ("Prince Bira", "Rumba" linking "Rhumba"), where otherwise
        it would be read as naming something else the page covers."""
        marked = 0
        rows = []
        for row in table.rows:
            cells = []
            for cell in row:
                if (
                    len(cell.links) == 1
                    and not names_link(outside_parentheses(cell.text), cell.links[0])
                    and self.says(cell.links[0], cell.text)
                ):
                    cell = replace(cell, alias=True)
                    marked += 1
                cells.append(cell)
            rows.append(cells)
        if not marked:
            return table
        self.aliases += marked
        return replace(table, rows=rows)

    def resolve_all(
        self, items: Iterable[RawTable | Unreadable]
    ) -> Iterator[RawTable | Unreadable]:
        """`resolve` each table read and `mark_aliases`; unreadable records pass as they are."""
        for item in items:
            yield self.mark_aliases(self.resolve(item)) if isinstance(item, RawTable) else item


def gives_name(opening: str, text: str) -> bool:
    """Whether a page's folded `opening` gives `text` as a name of its thing: where it
    starts ("daryl campbell ( born ... ) , better known as taxstone"), in parentheses ("kuopion
    palloseura ( or kups )"), or after "or", "as", "formerly", "aka" and at most two words
    ("rhumba , also known as ballroom rumba"); not as a place it lies in ("... in kagoshima")
    or a person it tells of.

    >>> gives_name("the rhumba or rumba is a dance", "Rumba")
    True
    >>> gives_name("uchinoura space center is a facility in kagoshima", "Kagoshima")
    False
    >>> gives_name("helsingin jalkapalloklubi , commonly known as hjk helsinki", "HJK Helsinki")
    True
    """
    said = " ".join(_WORD.findall(fold_text(outside_parentheses(text))))
    if not opening or not said:
        return False
    name = rf"{re.escape(said)}(?!\w)"
    inside = " ".join(re.findall(r"\(([^()]*)\)", opening))
    return bool(
        re.match(rf"(?:the\s+)?{name}", opening)
        or re.search(rf"(?<!\w){name}", inside)
        or re.search(rf"\b(?:or|as|formerly|aka)\s+(?:\w+\s+){{0,2}}{name}", opening)
    )


def _resolved_cell(cell: Cell, pages: list[str], apart: set[str]) -> Cell:
    """`cell` with each link replaced by its page (`pages`, in link order), except a link the
    table lists apart; a link that comes to name what another link of the cell names is
    dropped."""
    links: list[str] = []
    for link, page in zip(cell.links, pages, strict=True):
        page = link if link in apart else page
        if page != link and (page in cell.links or page in links):
            continue  # another link of the cell names it
        links.append(page)
    return Cell(cell.text, tuple(links))


def _title_rank(title: str, opening: str, page_id: str) -> tuple[float, float, int, str]:
    """How a group's own page is chosen (smallest first): the title whose words the page's
    opening says most of (the bold name that starts it: "Argentine tango is ...", "Francisco
    Javier Gómez Noya (born ...)"), folded, then as written; then the longer title, the id."""
    words = name_words(title)
    folded = len(words & name_words(opening)) / len(words) if words else 0.0
    written = set(_WORD.findall(_PARENTHESES.sub(" ", title.replace("_", " "))))
    exact = len(written & set(_WORD.findall(opening))) / len(written) if written else 0.0
    return (-folded, -exact, -len(words), page_id)


def _season_link(link: str) -> bool:
    return any(p.match(link) for p in _SEASON_PAGE)
