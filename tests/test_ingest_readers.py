"""Readers: every input shape, spans, encodings and broken lines, without a database."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from seekgraph.common.config import load_section
from seekgraph.synth.errors import IngestError
from seekgraph.synth.ingest.clean import check_table
from seekgraph.synth.ingest.config import IngestConfig
from seekgraph.synth.ingest.readers import read_csv, read_html, read_ottqa, read_pages, read_tables
from seekgraph.synth.ingest.records import Cell, PageRecord, RawTable, Unreadable, wiki_id
from seekgraph.synth.ingest.values import typed_value
from tests.conftest import BAD_DATA, DEFAULT_DATA


def test_html_spans_are_expanded_and_lowest_header_row_names_columns() -> None:
    (table,) = list(read_html(DEFAULT_DATA / "extra" / "article.html"))
    assert isinstance(table, RawTable)
    assert table.title == "Prix Goncourt"
    assert table.section_title == "Winners (selection)"
    assert table.header == ["Year", "Author", "Work", "Notes"]
    by_year = {row[0].text: row for row in table.rows}
    # Romain Gary's cell spans the 1956 and 1975 rows.
    assert by_year["1975"][1].text == "Romain Gary"
    assert by_year["1975"][1].links == ("/wiki/Romain_Gary",)
    assert by_year["1975"][2].text == "La Vie devant soi"
    assert all(len(row) == 4 for row in table.rows)


def test_html_colspan_and_rowspan_grid(tmp_path: Path) -> None:
    html = """<html><body><h1 id="firstHeading">T</h1><table class="wikitable">
    <tr><th>A</th><th>B</th><th>C</th></tr>
    <tr><td rowspan="3"><a href="/wiki/X">X</a></td><td colspan="2">wide</td></tr>
    <tr><td>b2</td><td>c2</td></tr>
    <tr><td colspan="2" rowspan="2">block</td></tr>
    <tr><td>a4</td></tr>
    </table><table class="infobox"><tr><th>skip</th></tr></table></body></html>"""
    path = tmp_path / "t.html"
    path.write_text(html, encoding="utf-8")
    (table,) = list(read_html(path))
    assert isinstance(table, RawTable)
    assert [[c.text for c in row] for row in table.rows] == [
        ["X", "wide", "wide"],
        ["X", "b2", "c2"],
        ["X", "block", "block"],
        ["a4", "block", "block"],
    ]


def test_latin1_csv_is_rejected_for_encoding() -> None:
    (item,) = list(read_csv(BAD_DATA / "latin1.csv"))
    assert isinstance(item, Unreadable)
    assert item.reason == "encoding"
    assert item.record_id == "csv:latin1.csv"  # no source named: the file's name alone


def test_broken_json_line_is_rejected_and_the_rest_is_read() -> None:
    items = list(read_ottqa(BAD_DATA / "broken.jsonl"))
    assert [type(i).__name__ for i in items] == ["RawTable", "Unreadable", "RawTable"]
    bad = items[1]
    assert isinstance(bad, Unreadable)
    assert (bad.record_id.split("@")[0], bad.reason) == ("broken.jsonl:2", "broken_json")


def test_gzipped_jsonl_and_non_utf8_lines(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl.gz"
    good = {"table_id": "T_1", "title": "T", "header": [["A", []]], "data": [[["a", ["/wiki/A"]]]]}
    with gzip.open(path, "wb") as handle:
        handle.write(json.dumps(good).encode() + b"\n")
        handle.write(b'{"table_id": "caf\xe9"}\n')
    items = list(read_tables(path))
    assert isinstance(items[0], RawTable) and items[0].rows[0][0].links == ("/wiki/A",)
    assert isinstance(items[1], Unreadable) and items[1].reason == "encoding"


def test_unknown_format_is_a_typed_error(tmp_path: Path) -> None:
    path = tmp_path / "t.xlsx"
    path.write_bytes(b"x")
    with pytest.raises(IngestError, match="unknown table format"):
        read_tables(path)


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("ragged.jsonl", "ragged"),
        ("empty.jsonl", "empty"),
        ("huge_cell.jsonl", "cell_too_large"),
    ],
)
def test_bad_tables_get_their_reason(name: str, reason: str) -> None:
    (table,) = list(read_ottqa(BAD_DATA / name))
    assert isinstance(table, RawTable)
    assert check_table(table, IngestConfig()).reason == reason


def test_thresholds_are_configurable() -> None:
    table = next(t for t in read_ottqa(DEFAULT_DATA / "tables.jsonl") if isinstance(t, RawTable))
    assert check_table(table, IngestConfig()).reason is None
    strict = load_section(IngestConfig, {"min_rows": 100}, source="t.toml", section="ingest")
    assert check_table(table, strict).reason == "too_few_rows"
    flagged = load_section(IngestConfig, {"min_rows": 100}, flags={"min_rows": 2})
    assert flagged.min_rows == 2


def test_page_ids_meet_across_sources() -> None:
    # Wikispeedia names are URL-encoded article names; OTT-QA ids are /wiki/ paths.
    assert wiki_id("%C3%81ed%C3%A1n_mac_Gabr%C3%A1in") == "/wiki/Áedán_mac_Gabráin"
    assert wiki_id("Áedán_mac_Gabráin") == "/wiki/Áedán_mac_Gabráin"
    assert wiki_id("https://en.wikipedia.org/wiki/Kazuo_Ishiguro#Life") == "/wiki/Kazuo_Ishiguro"
    pages = [
        p
        for p in read_pages(DEFAULT_DATA / "pages.jsonl", "default")
        if not isinstance(p, Unreadable)
    ]
    assert len(pages) == 259
    assert all(p.page_id.startswith("/wiki/") and p.source == "default" for p in pages)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1959", ("year", "1959")),
        ("October 23 , 1959", ("date", "1959-10-23")),
        ("23 October 1959", ("date", "1959-10-23")),
        ("1959-10-23", ("date", "1959-10-23")),
        ("1,200", ("number", "1200")),
        ("3.50", ("number", "3.5")),
        ("2020-02-30", ("text", "2020-02-30")),
        ("Eek ! The  Cat", ("text", "eek! the cat")),
    ],
)
def test_values_are_typed_and_normalised(text: str, expected: tuple[str, str]) -> None:
    assert typed_value(text) == expected


def test_control_characters_never_reach_ids_or_names(tmp_path: Path) -> None:
    """A NUL (or another control character) from a broken export is dropped from cell text,
    link ids, headers, titles and page text."""
    table = {
        "table_id": "T",
        "title": "Nobel\u0000 Prize",
        "section_title": "",
        "header": [["Year\u0007", []], ["Laureate", []]],
        "data": [[["1989", []], ["Kazuo\u0000 Ishiguro", ["/wiki/Kazuo_%00Ishiguro"]]]],
    }
    page = {"id": "/wiki/Nagasaki\u0000", "title": "Naga\u001bsaki", "text": "A port\u0000."}
    (tmp_path / "t.jsonl").write_text(json.dumps(table) + "\n")
    (tmp_path / "p.jsonl").write_text(json.dumps(page) + "\n")
    (read,) = list(read_ottqa(tmp_path / "t.jsonl"))
    assert isinstance(read, RawTable)
    assert read.title == "Nobel Prize" and read.header == ["Year", "Laureate"]
    assert read.rows[0][1] == Cell("Kazuo Ishiguro", ("/wiki/Kazuo_Ishiguro",))
    (p,) = list(read_pages(tmp_path / "p.jsonl"))
    assert isinstance(p, PageRecord)
    assert (p.page_id, p.title, p.text) == ("/wiki/Nagasaki", "Nagasaki", "A port.")
