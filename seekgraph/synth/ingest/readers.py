"""Streaming readers for tables and pages; each yields records or an `Unreadable` rejection.

Tables: OTT-QA/HybridQA JSONL (``.jsonl``/``.jsonl.gz``, every cell ``[text, [links]]``),
CSV with a header row, and Wikipedia article HTML (every ``table.wikitable``; spans expanded).
Pages: passages JSONL ``{id, title, text}`` and articles JSONL with ``out_links`` (Wikispeedia
ids are article names, OTT-QA ids are ``/wiki/X``; both map to ``/wiki/X`` via `wiki_id`).
A record that cannot be read (a broken JSON line, bytes that are not UTF-8) becomes an
`Unreadable` naming the record and the reason; the reader then goes on with the next one.

Ids name a table's place, never its content: `name` is the file's path relative to the data
folder, and a CSV or HTML table's id is ``csv:<source>/<name>`` (``html:<source>/<name>#<index>``),
so two folders (two sources) with a ``prizes.csv`` each give two tables, and an edited file gives
the same table in a new version (`seekgraph.synth.ingest.sources`). A JSONL table keeps the
record's own ``table_id`` (a record without one is named by its line and a digest of its bytes).
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import json
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from seekgraph.synth.errors import IngestError
from seekgraph.synth.ingest.headers import header_is_data
from seekgraph.synth.ingest.records import Cell, PageRecord, RawTable, Unreadable, wiki_id

TableItem = RawTable | Unreadable
PageItem = PageRecord | Unreadable


def digest(data: bytes) -> str:
    """A short content digest for ids (8 hex digits of SHA-1)."""
    return hashlib.sha1(data).hexdigest()[:8]


def _open_lines(path: Path) -> IO[bytes]:
    if path.suffix == ".gz":
        return gzip.open(path, "rb")  # type: ignore[return-value]
    return open(path, "rb")


# what reading a damaged file raises: a truncated or corrupt gzip stream, an unreadable disk
_BROKEN_FILE = (EOFError, OSError, zlib.error)


def _lines(path: Path, name: str) -> Iterator[tuple[int, bytes] | Unreadable]:
    """(line number, bytes) of every line; a file that breaks off (a truncated gzip) ends
    with one `Unreadable` naming the file (``broken_file``) after the lines read before."""
    number = 0
    try:
        with _open_lines(path) as handle:
            for number, raw in enumerate(handle, start=1):
                yield number, raw
    except _BROKEN_FILE as e:
        detail = f"{type(e).__name__}: {e} (after line {number}); the lines before are read"
        yield Unreadable(name, "broken_file", detail)


def _json_lines(path: Path, name: str) -> Iterator[tuple[str, dict[str, Any] | Unreadable]]:
    """(record id ``name:line@digest``, parsed object or `Unreadable`) for every non-blank line."""
    for item in _lines(path, name):
        if isinstance(item, Unreadable):
            yield item.record_id, item
            return
        number, raw = item
        if not raw.strip():
            continue
        record_id = f"{name}:{number}@{digest(raw.strip())}"
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            yield record_id, Unreadable(record_id, "encoding", f"not UTF-8: {e}")
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as e:
            yield (
                record_id,
                Unreadable(record_id, "broken_json", f"{e.msg} at column {e.colno}"),
            )
            continue
        if not isinstance(obj, dict):
            yield record_id, Unreadable(record_id, "broken_json", "line is not a JSON object")
            continue
        yield record_id, obj


def _cell(value: Any) -> Cell:
    """An OTT-QA cell ``[text, [links]]`` (a bare string is accepted as an unlinked cell)."""
    if isinstance(value, str):
        return Cell(value.strip())
    if isinstance(value, list | tuple) and value and isinstance(value[0], str):
        links = value[1] if len(value) > 1 and isinstance(value[1], list) else []
        return Cell(value[0].strip(), tuple(wiki_id(x) for x in links if isinstance(x, str) and x))
    raise ValueError(f"cell is neither [text, links] nor text: {str(value)[:80]!r}")


def read_ottqa(path: Path, source: str = "ottqa", name: str | None = None) -> Iterator[TableItem]:
    """OTT-QA / HybridQA tables, one JSON object per line (id: the record's own ``table_id``)."""
    name = name or path.name
    for record_id, obj in _json_lines(path, name):
        if isinstance(obj, Unreadable):
            yield obj
            continue
        table_id = str(obj.get("table_id") or record_id)
        try:
            head = [_cell(h) for h in obj["header"]]
            rows = [[_cell(c) for c in row] for row in obj["data"]]
            header = [h.text for h in head]
            if header_is_data(head, rows):  # the source's header is its first data row
                rows, header = [head, *rows], [""] * len(head)
        except (KeyError, TypeError, ValueError) as e:
            yield Unreadable(table_id, "bad_shape", f"{type(e).__name__}: {e}")
            continue
        yield RawTable(
            table_id=table_id,
            source=source,
            title=str(obj.get("title") or ""),
            section_title=str(obj.get("section_title") or ""),
            url=str(obj.get("url") or ""),
            header=header,
            rows=rows,
            intro=str(obj.get("intro") or ""),
            origin=record_id,
        )


def read_csv(path: Path, name: str | None = None, source: str = "") -> Iterator[TableItem]:
    """One table per CSV file (first row = header); a file that is not UTF-8 is rejected.

    Its id is ``csv:<source>/<name>`` (``csv:<name>`` without a source name)."""
    name = name or path.name
    data = path.read_bytes()
    table_id = f"csv:{_within(source, name)}"
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        yield Unreadable(
            table_id, "encoding", f"{path.name} is not UTF-8 ({e.reason} at byte {e.start})"
        )
        return
    try:
        records = list(csv.reader(io.StringIO(text)))
    except csv.Error as e:
        yield Unreadable(table_id, "bad_shape", f"{path.name}: {e}")
        return
    records = [r for r in records if any(c.strip() for c in r)]
    if not records:
        yield Unreadable(table_id, "empty", f"{path.name} has no rows")
        return
    title = path.stem.replace("_", " ")
    yield RawTable(
        table_id=table_id,
        source="csv",
        title=title,
        section_title="",
        url="",
        header=[h.strip() for h in records[0]],
        rows=[[Cell(c.strip()) for c in r] for r in records[1:]],
        origin=name,
    )


def _expand_spans(tr_cells: list[list[Any]]) -> list[list[Any]]:
    """Expand rowspan/colspan into a rectangular grid of the original cell objects."""
    grid: list[list[Any]] = []
    pending: dict[tuple[int, int], Any] = {}  # (row, col) -> cell carried down by a rowspan
    for r, cells in enumerate(tr_cells):
        row: list[Any] = []
        col = 0
        queue = list(cells)
        while queue or (r, col) in pending:
            if (r, col) in pending:
                row.append(pending.pop((r, col)))
                col += 1
                continue
            cell = queue.pop(0)
            colspan = _span(cell.get("colspan"))
            rowspan = _span(cell.get("rowspan"))
            for dc in range(colspan):
                row.append(cell)
                for dr in range(1, rowspan):
                    pending[(r + dr, col + dc)] = cell
            col += colspan
        grid.append(row)
    return grid


def _span(value: Any) -> int:
    try:
        return max(1, min(int(str(value).strip()), 1000))
    except (TypeError, ValueError):
        return 1


def _html_cell(tag: Any) -> Cell:
    """A cell's text and the pages its links name; a link without text (a flag or other
    icon) names nothing and is skipped."""
    links = []
    for a in tag.find_all("a", href=True):
        href = a["href"]
        if not a.get_text(strip=True):
            continue
        if href.startswith("/wiki/") and ":" not in href.removeprefix("/wiki/"):
            links.append(wiki_id(href))
    for sup in tag.find_all("sup"):  # footnote markers
        sup.decompose()
    text = " ".join(tag.get_text(" ").split())
    return Cell(text, tuple(dict.fromkeys(links)))


def _within(source: str, name: str) -> str:
    return f"{source}/{name}" if source else name


def read_html(path: Path, name: str | None = None, source: str = "") -> Iterator[TableItem]:
    """Every ``table.wikitable`` of a Wikipedia article; header rows are rows of only ``th``.

    With several header rows (``Winner`` spanning ``Author`` and ``Work``) the lowest row
    names the column, which is the most specific name. Ids: ``html:<source>/<name>#<index>``.
    """
    from bs4 import BeautifulSoup

    name = name or path.name
    data = path.read_bytes()
    file_id = f"html:{_within(source, name)}"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        yield Unreadable(file_id, "encoding", f"{name} is not UTF-8: {e.reason}")
        return
    soup = BeautifulSoup(text, "lxml")
    heading = soup.find(id="firstHeading") or soup.find("title")
    title = " ".join(heading.get_text(" ").split()) if heading else path.stem
    title = title.removesuffix(" - Wikipedia")
    canonical = soup.find("link", rel="canonical")
    url = str(canonical["href"]) if canonical and canonical.get("href") else ""
    for index, table in enumerate(soup.select("table.wikitable")):
        table_id = f"{file_id}#{index}"
        section = ""
        previous = table.find_previous(["h2", "h3", "h4"])
        if previous is not None:
            section = " ".join(previous.get_text(" ").split()).removesuffix("[edit]").strip()
        trs = [tr for tr in table.find_all("tr") if tr.find_parent("table") is table]
        raw = [[c for c in tr.find_all(["th", "td"], recursive=False)] for tr in trs]
        grid = _expand_spans([r for r in raw if r])
        header_rows = 0
        while header_rows < len(grid) and all(c.name == "th" for c in grid[header_rows]):
            header_rows += 1
        if header_rows == 0:
            yield Unreadable(table_id, "no_header", "no row of header cells (th)")
            continue
        cells = {id(c): _html_cell(c) for row in grid for c in row}
        header = [cells[id(c)].text for c in grid[header_rows - 1]]
        rows = [[cells[id(c)] for c in row] for row in grid[header_rows:]]
        yield RawTable(
            table_id=table_id,
            source="html",
            title=title,
            section_title=section,
            url=url,
            header=header,
            rows=rows,
            origin=f"{name}#{index}",
        )


def read_tables(
    path: Path, source: str | None = None, name: str | None = None, source_name: str = ""
) -> Iterator[TableItem]:
    """Dispatch on the file name: ``.jsonl[.gz]``/``.json``, ``.csv``, ``.html``/``.htm``.

    `source` labels JSONL tables (default ``ottqa``); CSV and HTML tables are labelled by format.
    `name` is the path relative to the data folder (default: the file name); `source_name`
    the data folder's name as a source, which CSV and HTML table ids start with.
    """
    lower = path.name.lower()
    label = name or path.name
    if not path.is_file():
        raise IngestError(f"{path} is not a file")
    if lower.endswith((".jsonl", ".jsonl.gz", ".json")):
        return read_ottqa(path, source or "ottqa", label)
    if lower.endswith(".csv"):
        return read_csv(path, label, source_name)
    if lower.endswith((".html", ".htm")):
        return read_html(path, label, source_name)
    raise IngestError(f"{path}: unknown table format (expected .jsonl, .jsonl.gz, .csv or .html)")


def _year(value: Any) -> int | None:
    try:
        return int(value) if value is not None and str(value).strip() else None
    except (TypeError, ValueError):
        return None


def read_pages(
    path: Path, source: str | None = None, name: str | None = None
) -> Iterator[PageItem]:
    """Passages ``{id, title, text}`` or articles with ``out_links`` (JSONL, optionally gzipped).

    `source` defaults to ``article`` for records with ``out_links`` and ``passage`` otherwise.
    """
    if not path.is_file():
        raise IngestError(f"{path} is not a file")
    for record_id, obj in _json_lines(path, name or path.name):
        if isinstance(obj, Unreadable):
            yield obj
            continue
        raw_id = obj.get("id") or obj.get("page_id") or obj.get("title")
        if not isinstance(raw_id, str) or not raw_id.strip():
            yield Unreadable(record_id, "bad_shape", "page has no id or title")
            continue
        links = obj.get("out_links") or []
        if not isinstance(links, list):
            yield Unreadable(record_id, "bad_shape", "out_links is not a list")
            continue
        page_id = wiki_id(raw_id)
        out = list(dict.fromkeys(wiki_id(x) for x in links if isinstance(x, str) and x.strip()))
        kind = source or ("article" if "out_links" in obj else "passage")
        yield PageRecord(
            page_id=page_id,
            title=str(obj.get("title") or raw_id).replace("_", " ")
            if not obj.get("title")
            else str(obj["title"]),
            text=str(obj.get("text") or ""),
            source=kind,
            url=str(obj.get("url") or ""),
            out_links=[x for x in out if x != page_id],
            year=_year(obj.get("year")),
            origin=record_id,
        )


def file_kind(path: Path) -> str:
    """``tables`` or ``pages``: CSV and HTML hold tables; a JSONL file holds tables when its
    first record has a ``header``, else pages. Raises `IngestError` for other files."""
    name = path.name.lower()
    if name.endswith((".csv", ".html", ".htm")):
        return "tables"
    if not name.endswith((".jsonl", ".jsonl.gz", ".json")):
        raise IngestError(f"{path}: unknown format (expected .jsonl, .jsonl.gz, .csv or .html)")
    for item in _lines(path, path.name):
        if isinstance(item, Unreadable):
            return "tables"  # the table reader rejects the broken file with a reason
        raw = item[1]
        if raw.strip():
            try:
                first = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError):
                return "tables"  # the table reader rejects the broken line with a reason
            return "tables" if isinstance(first, dict) and "header" in first else "pages"
    return "tables"
