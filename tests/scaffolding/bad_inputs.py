"""A data folder of bad inputs beside good ones, and what ingest must say about each.

`write_bad_folder` writes the default data (kept as before) plus one file per bad case; `CASES`
lists, per case, the rejection the ingest stage must record: the record id's start (a file's
path relative to the folder, a line ``file:line`` or a table id) and the reason code.
"""

from __future__ import annotations

import copy
import gzip
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.conftest import DEFAULT_DATA


@dataclass(frozen=True)
class Case:
    name: str
    record: str  # the start of the rejected record's id
    reason: str


def _base() -> dict[str, Any]:
    line = (DEFAULT_DATA / "tables.jsonl").read_text(encoding="utf-8").splitlines()[0]
    table: dict[str, Any] = json.loads(line)
    return table


def _table(table_id: str, **changes: Any) -> str:
    table = copy.deepcopy(_base())
    table["table_id"] = table_id
    table.update(changes)
    return json.dumps(table, ensure_ascii=False)


def _cell(text: str, *links: str) -> list[Any]:
    return [text, list(links)]


def _rows(n: int) -> list[list[list[Any]]]:
    return [
        [_cell(f"Person {i}", f"/wiki/Person_{i}"), _cell(str(1900 + i % 100))] for i in range(n)
    ]


CASES = [
    Case("empty file", "empty.jsonl", "no_records"),
    Case("blank lines only", "blank.jsonl", "no_records"),
    Case("HTML without a table", "no_table.html", "no_records"),
    Case("HTML table without header cells", "html:data/headless.html#0", "no_header"),
    Case("broken JSON line", "broken.jsonl:2", "broken_json"),
    Case("a line that is not an object", "broken.jsonl:3", "broken_json"),
    Case("bytes that are not UTF-8 in a line", "latin1.jsonl:1", "encoding"),
    Case("non-UTF-8 CSV", "csv:data/latin1.csv", "encoding"),
    Case("header-only CSV", "csv:data/header_only.csv", "empty"),
    Case("a table without rows", "Bad_no_rows", "empty"),
    Case("ragged rows", "Bad_ragged", "ragged"),
    Case("duplicate headers", "Bad_duplicate_headers", "duplicate_headers"),
    Case("a huge cell", "Bad_huge_cell", "cell_too_large"),
    Case("too few rows", "Bad_few_rows", "too_few_rows"),
    Case("one column", "Bad_one_column", "too_few_columns"),
    Case("50,000 rows", "Bad_50000_rows", "too_many_rows"),
    Case("mostly empty cells", "Bad_empty_cells", "too_many_empty"),
    Case("no key column", "Bad_no_key", "no_key_column"),
    Case("the same table id twice", "Bad_twice", "duplicate_id"),
    Case("a summary row", "Good_with_total#r5", "summary_row"),
    Case("a page without id or title", "more_pages.jsonl:1", "bad_shape"),
    Case("a page whose out_links is not a list", "more_pages.jsonl:2", "bad_shape"),
    Case("a truncated gzip file", "truncated.jsonl.gz", "broken_file"),
]
# Kept although odd: their names must arrive as text, never as Cypher or control characters.
KEPT = {
    "Good_injection": "'}) MATCH (n) DETACH DELETE n //",
    "Good_control_chars": "Ann\x00a Kar\x07enina",
    "Good_with_total": "",
}


def write_bad_folder(folder: Path) -> None:
    """The default data under ``default/`` and every case of `CASES` beside it."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "default").mkdir(exist_ok=True)
    for name in ("tables.jsonl", "pages.jsonl"):
        (folder / "default" / name).write_bytes((DEFAULT_DATA / name).read_bytes())
    (folder / "notes.txt").write_text("not data: listed as ignored\n")
    (folder / "empty.jsonl").write_bytes(b"")
    (folder / "blank.jsonl").write_text("\n\n  \n")
    (folder / "no_table.html").write_text("<html><body><p>No table here.</p></body></html>")
    (folder / "headless.html").write_text(
        "<html><body><table class='wikitable'><tr><td>a</td><td>b</td></tr></table></body></html>"
    )
    base = _table("Bad_broken_ok_line")
    (folder / "broken.jsonl").write_text(f'{base}\n{{"table_id": "x", "header": [\n[1, 2, 3]\n')
    (folder / "latin1.jsonl").write_bytes(
        '{"table_id": "Bad_latin1", "title": "Café"}\n'.encode("latin-1")
    )
    (folder / "latin1.csv").write_bytes("Name,Country\nJosé,España\n".encode("latin-1"))
    (folder / "header_only.csv").write_text("Name,Country\n")
    rows = _base()["data"]
    header = _base()["header"]
    tables = [
        _table("Bad_no_rows", data=[]),
        _table("Bad_ragged", data=[*rows[:5], rows[5][:2]]),
        _table("Bad_duplicate_headers", header=[header[0], header[1], header[1], *header[3:]]),
        _table(
            "Bad_huge_cell",
            data=[[_cell("x" * 30_000), *rows[0][1:]], *rows[1:]],
        ),
        _table("Bad_few_rows", data=rows[:2]),
        _table("Bad_one_column", header=[header[1]], data=[[r[1]] for r in rows]),
        _table("Bad_50000_rows", header=[_cell("Name"), _cell("Born")], data=_rows(50_000)),
        _table(
            "Bad_empty_cells",
            data=[[r[0], _cell(""), _cell(""), _cell(""), _cell("")] for r in rows],
        ),
        _table(
            "Bad_no_key",
            header=[_cell("A"), _cell("B")],
            data=[[_cell("1"), _cell("1")] for _ in range(8)],
        ),
        _table("Bad_twice"),
        _table("Bad_twice"),
        _table(
            "Good_with_total",
            data=[
                *rows[:5],
                [_cell(""), _cell("Total"), *[_cell("") for _ in rows[0][2:]]],
                *rows[5:],
            ],
        ),
        _table(
            "Good_injection",
            header=[_cell(KEPT["Good_injection"]), *header[1:]],
            data=[[_cell(KEPT["Good_injection"] + r[0][0]), *r[1:]] for r in rows],
        ),
        _table(
            "Good_control_chars",
            data=[
                [r[0], _cell(KEPT["Good_control_chars"] + r[1][0], *r[1][1]), *r[2:]] for r in rows
            ],
        ),
    ]
    (folder / "odd_tables.jsonl").write_text("\n".join(tables) + "\n", encoding="utf-8")
    pages = [
        json.dumps({"text": "a page with neither id nor title"}),
        json.dumps({"id": "/wiki/X", "title": "X", "text": "x", "out_links": "/wiki/Y"}),
        json.dumps({"id": "/wiki/Fine_page", "title": "Fine page", "text": "kept"}),
    ]
    (folder / "more_pages.jsonl").write_text("\n".join(pages) + "\n")
    whole = gzip.compress(("\n".join(pages) + "\n").encode() * 50)
    (folder / "truncated.jsonl.gz").write_bytes(whole[: len(whole) // 2])
