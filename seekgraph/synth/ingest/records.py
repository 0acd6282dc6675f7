"""Plain records the readers yield: a table, a page, or a typed rejection of an unreadable record.

Readers never raise on one bad record: they yield `Unreadable(record_id, reason, detail)` and go
on, so the rest of a batch still loads. Reasons are short codes (`broken_json`, `encoding`, ...).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from urllib.parse import unquote

# C0 and C1 control characters other than tab, newline and carriage return: a NUL from a broken
# export would otherwise end up in ids and names
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """`text` without control characters."""
    return _CONTROL.sub("", text)


@dataclass(frozen=True)
class Cell:
    """One table cell: its text and the `/wiki/...` targets it links to."""

    text: str
    links: tuple[str, ...] = ()
    # the text is a name its one link's page gives its thing in its opening ("Prince Bira"
    # linking Birabongse Bhanudej, "KuPS" linking Kuopion Palloseura), though it says none of
    # the title's words: set by `redirects.LinkResolver.mark_aliases`, read by `key_links`
    alias: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", printable(self.text))


@dataclass
class RawTable:
    """A table as read from any source, before cleaning."""

    table_id: str
    source: str  # ottqa | csv | html | default
    title: str
    section_title: str
    url: str
    header: list[str]
    rows: list[list[Cell]]
    intro: str = ""
    origin: str = ""  # where it was read: file relative to the data folder, line or index

    def __post_init__(self) -> None:
        self.title = printable(self.title)
        self.section_title = printable(self.section_title)
        self.header = [printable(h) for h in self.header]

    @property
    def n_rows(self) -> int:
        return len(self.rows)

    @property
    def n_cols(self) -> int:
        return len(self.header)

    def content_hash(self) -> str:
        """Hash of everything that ends up in the graph, so a re-run can skip unchanged tables."""
        blob = json.dumps(
            [
                self.title,
                self.section_title,
                self.url,
                self.source,
                self.header,
                # an alias mark joins a cell only where set: hashes of other tables stay
                [
                    [[c.text, list(c.links), *([1] if c.alias else [])] for c in row]
                    for row in self.rows
                ],
            ],
            ensure_ascii=False,
            separators=(",", ":"),
        )
        return hashlib.sha1(blob.encode("utf-8")).hexdigest()[:16]


@dataclass
class PageRecord:
    """A passage or an article; `out_links` are page ids (`/wiki/X`)."""

    page_id: str
    title: str
    text: str
    source: str  # passage | article | default
    url: str = ""
    out_links: list[str] = field(default_factory=list)
    year: int | None = None
    origin: str = ""  # file relative to the data folder, line and digest

    def __post_init__(self) -> None:
        self.title = printable(self.title)
        self.text = printable(self.text)

    def content_hash(self) -> str:
        blob = json.dumps(
            [self.title, self.text, self.source, self.url, self.out_links, self.year],
            ensure_ascii=False,
            separators=(",", ":"),
        )
        return hashlib.sha1(blob.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class Unreadable:
    """A record a reader could not turn into a table or page (kept as a rejection)."""

    record_id: str
    reason: str
    detail: str = ""


def wiki_id(name: str) -> str:
    """Map a link target or an article name to our page/entity id ``/wiki/Name``.

    Accepts ``/wiki/X``, full ``https://en.wikipedia.org/wiki/X`` URLs and bare (possibly
    URL-encoded) article names such as Wikispeedia's ``%C3%81ed%C3%A1n_mac_Gabr%C3%A1in``;
    spaces become underscores and the fragment is dropped, so every source meets the same id.
    """
    target = name.strip()
    if "/wiki/" in target:
        target = target.split("/wiki/", 1)[1]
    target = printable(unquote(target)).split("#", 1)[0].replace(" ", "_")
    return f"/wiki/{target}"


def title_from_id(entity_id: str) -> str:
    """``/wiki/Kazuo_Ishiguro`` → ``Kazuo Ishiguro`` (a name when no page title is known)."""
    return entity_id.removeprefix("/wiki/").replace("_", " ")
