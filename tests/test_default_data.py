"""Checks on the project's own default data set (seekgraph/synth/default_data/). Pure Python, no database."""

import csv
import json
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "seekgraph" / "synth" / "default_data"
BAD = Path(__file__).resolve().parent / "data" / "bad"
TABLE_KEYS = {
    "table_id",
    "url",
    "title",
    "section_title",
    "section_text",
    "intro",
    "header",
    "data",
}


def _read_jsonl(path):
    out = []
    with path.open(encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError as exc:  # pragma: no cover - failure path
                pytest.fail(f"{path.name}:{lineno}: invalid JSON: {exc}")
    return out


@pytest.fixture(scope="module")
def tables():
    return _read_jsonl(DATA / "tables.jsonl")


@pytest.fixture(scope="module")
def pages():
    return _read_jsonl(DATA / "pages.jsonl")


def _is_cell(cell):
    return (
        isinstance(cell, list)
        and len(cell) == 2
        and isinstance(cell[0], str)
        and isinstance(cell[1], list)
        and all(isinstance(t, str) and t.startswith("/wiki/") and " " not in t for t in cell[1])
    )


def test_tables_parse_and_have_ottqa_shape(tables):
    assert 8 <= len(tables) <= 10
    ids = [t["table_id"] for t in tables]
    assert len(ids) == len(set(ids)), "duplicate table_id"
    for t in tables:
        assert set(t) >= TABLE_KEYS, t.get("table_id")
        assert t["url"].startswith("https://en.wikipedia.org/wiki/")
        for key in ("title", "section_title", "section_text", "intro"):
            assert isinstance(t[key], str)
        assert all(_is_cell(h) for h in t["header"]), t["table_id"]
        assert 8 <= len(t["data"]) <= 25, t["table_id"]


def test_tables_are_rectangular(tables):
    for t in tables:
        width = len(t["header"])
        assert width >= 2
        for i, row in enumerate(t["data"]):
            assert len(row) == width, (
                f"{t['table_id']} row {i}: {len(row)} cells, header has {width}"
            )
            assert all(_is_cell(c) for c in row), f"{t['table_id']} row {i}"


def test_pages_parse_and_shape(pages):
    assert pages
    ids = [p["id"] for p in pages]
    assert len(ids) == len(set(ids)), "duplicate page id"
    for p in pages:
        assert p["id"].startswith("/wiki/") and " " not in p["id"]
        assert isinstance(p["title"], str) and p["title"]
        assert isinstance(p["text"], str) and len(p["text"]) > 20
        assert isinstance(p["out_links"], list) and p["out_links"], p["id"]
        assert p["id"] not in p["out_links"], f"{p['id']} links to itself"
        if "year" in p:
            assert isinstance(p["year"], int)


def test_every_table_link_has_a_page(tables, pages):
    ids = {p["id"] for p in pages}
    missing = set()
    for t in tables:
        for row in [t["header"]] + t["data"]:
            for _, links in row:
                missing.update(link for link in links if link not in ids)
    assert not missing, sorted(missing)


def test_page_links_are_closed(pages):
    ids = {p["id"] for p in pages}
    dangling = {(p["id"], link) for p in pages for link in p["out_links"] if link not in ids}
    assert not dangling, sorted(dangling)


def test_entities_recur_across_tables(tables):
    seen = defaultdict(set)
    for t in tables:
        for row in t["data"]:
            for _, links in row:
                for link in links:
                    seen[link].add(t["table_id"])
    recurring = {e for e, ts in seen.items() if len(ts) >= 2}
    assert len(recurring) >= 5, sorted(recurring)
    for entity in (
        "/wiki/Kazuo_Ishiguro",
        "/wiki/United_Kingdom",
        "/wiki/English_language",
        "/wiki/South_Africa",
    ):
        assert entity in recurring, entity


def test_table_facts_are_stated_on_key_pages(tables, pages):
    """The page of each row's first linked entity links to the row's other linked entities."""
    by_id = {p["id"]: p for p in pages}
    for t in tables:
        for row in t["data"]:
            linked = [links[0] for _, links in row if links]
            key = linked[0]
            for other in linked[1:]:
                # the key page or the other entity's page must connect them
                assert other in by_id[key]["out_links"] or key in by_id[other]["out_links"], (
                    t["table_id"],
                    key,
                    other,
                )


def test_extra_csv():
    path = DATA / "extra" / "prizes.csv"
    with path.open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    assert header and 6 <= len(body) <= 10
    assert all(len(r) == len(header) for r in body)


class _TableScan(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tables = []  # (class attr, attrs seen inside, hrefs)
        self._stack = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self._stack.append({"class": attrs.get("class") or "", "spans": set(), "hrefs": []})
        elif self._stack:
            cur = self._stack[-1]
            for span in ("rowspan", "colspan"):
                if span in attrs:
                    cur["spans"].add(span)
            if tag == "a" and attrs.get("href", "").startswith("/wiki/"):
                cur["hrefs"].append(attrs["href"])

    def handle_endtag(self, tag):
        if tag == "table" and self._stack:
            self.tables.append(self._stack.pop())


def test_extra_html(pages):
    text = (DATA / "extra" / "article.html").read_text(encoding="utf-8")
    scan = _TableScan()
    scan.feed(text)
    wiki = [t for t in scan.tables if "wikitable" in t["class"].split()]
    other = [t for t in scan.tables if "wikitable" not in t["class"].split()]
    assert len(wiki) == 1 and other
    assert {"rowspan", "colspan"} <= wiki[0]["spans"]
    ids = {p["id"] for p in pages}
    assert wiki[0]["hrefs"] and all(h in ids for h in wiki[0]["hrefs"])


def test_bad_inputs_present_and_bad():
    bad = BAD
    ragged = json.loads((bad / "ragged.jsonl").read_text(encoding="utf-8"))
    assert len({len(r) for r in ragged["data"]}) > 1
    empty = json.loads((bad / "empty.jsonl").read_text(encoding="utf-8"))
    assert empty["header"] and empty["data"] == []
    huge = bad / "huge_cell.jsonl"
    assert 900_000 < huge.stat().st_size < 1_200_000
    assert (
        max(len(c[0]) for r in json.loads(huge.read_text(encoding="utf-8"))["data"] for c in r)
        >= 1_000_000
    )
    lines = (bad / "broken.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3
    json.loads(lines[0])
    json.loads(lines[2])
    with pytest.raises(json.JSONDecodeError):
        json.loads(lines[1])
    raw = (bad / "latin1.csv").read_bytes()
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")
    assert "é" in raw.decode("cp1252")
