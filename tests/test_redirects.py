"""One thing, one entity across tables (issue 32): links to a redirect or to a season's page
resolve to the page they stand for, on real OTT-QA tables of one series (tuning tables, none
held out by `bench.ottqa_sample.is_heldout`)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import neo4j
import pytest

from bench.ottqa_sample import is_heldout
from seekgraph.synth.ingest.key_cells import key_links
from seekgraph.synth.ingest.readers import read_ottqa, read_pages
from seekgraph.synth.ingest.records import Cell, PageRecord, RawTable
from seekgraph.synth.ingest.redirects import LinkResolver, same_name
from seekgraph.synth.stages import INGEST
from tests.conftest import run_stage

SERIES = ("2011_V-League_0", "2012_V-League_0", "Super_League_XVII_0", "Super_League_XVIII_0")


@pytest.fixture(scope="module")
def series_folder(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The four tables as a data folder, with the passages their cells link to."""
    assert not any(is_heldout(t) for t in SERIES)
    ottqa = shared_data / "ottqa"
    folder = tmp_path_factory.mktemp("series")
    records = []
    with gzip.open(ottqa / "tables.train.jsonl.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            if json.loads(line)["table_id"] in SERIES:
                records.append(line)
    assert len(records) == len(SERIES)
    (folder / "tables.jsonl").write_text("".join(records), encoding="utf-8")
    links = {
        link
        for line in records
        for row in json.loads(line)["data"]
        for cell in row
        for link in cell[1]
    }
    with (
        gzip.open(ottqa / "passages.train.jsonl.gz", "rt", encoding="utf-8") as handle,
        (folder / "passages.jsonl").open("w", encoding="utf-8") as out,
    ):
        for line in handle:
            if json.loads(line)["id"] in links:
                out.write(line)
    return folder


def _key_links(table: RawTable) -> list[tuple[str, ...]]:
    return [row[0].links for row in table.rows]


@pytest.mark.shared_data
def test_a_renamed_club_is_one_page_in_both_seasons(series_folder: Path) -> None:
    tables = {
        t.table_id: t for t in read_ottqa(series_folder / "tables.jsonl") if isinstance(t, RawTable)
    }
    before = [{links[0] for links in _key_links(tables[t])} for t in SERIES[:2]]
    resolver = LinkResolver().add_pages(read_pages(series_folder / "passages.jsonl"))
    after = [{links[0] for links in _key_links(resolver.resolve(tables[t]))} for t in SERIES[:2]]
    # "Becamex Bình Dương" links Bình_Dương_F.C. in 2011, Becamex_Bình_Dương_F.C. in 2012: the
    # same page text, names of one club
    assert len(before[0] & before[1]) == 3
    assert len(after[0] & after[1]) == 11
    assert "/wiki/Becamex_Bình_Dương_F.C." in after[0] & after[1]
    assert len(after[0]) == len(before[0])  # no two clubs of a season became one


@pytest.mark.shared_data
def test_a_seasons_page_beside_its_club_is_the_club(series_folder: Path) -> None:
    tables = {
        t.table_id: t for t in read_ottqa(series_folder / "tables.jsonl") if isinstance(t, RawTable)
    }
    resolver = LinkResolver().add_pages(read_pages(series_folder / "passages.jsonl"))
    bulls = tables["Super_League_XVIII_0"].rows[0][0]
    assert bulls.links == ("/wiki/Bradford_Bulls", "/wiki/2013_Bradford_Bulls_season")
    resolved = resolver.resolve(tables["Super_League_XVIII_0"])
    assert resolved.rows[0][0] == Cell(bulls.text, ("/wiki/Bradford_Bulls",))
    # the club under its new name beside its season under the old one: the cell's club
    salford = resolved.rows[8][0]
    assert salford.text.startswith("Salford City Reds")
    assert salford.links == ("/wiki/Salford_Red_Devils",)
    assert not any("season" in link.lower() for links in _key_links(resolved) for link in links)


def _page(page_id: str, text: str) -> PageRecord:
    return PageRecord(page_id, page_id.removeprefix("/wiki/").replace("_", " "), text, "passage")


def test_a_list_page_does_not_join_what_it_lists() -> None:
    routes = "The bus division operates bus routes in the Boston area and beyond ."
    resolver = LinkResolver().add_pages(
        [_page("/wiki/10_(MBTA_bus)", routes), _page("/wiki/112_(MBTA_bus)", routes)]
    )
    assert not same_name("10 (MBTA bus)", "112 (MBTA bus)")
    assert resolver.same_page == {}


def test_two_rows_of_one_table_stay_two_things() -> None:
    club = "Hull Football Club is a professional rugby league club in Hull , England ."
    resolver = LinkResolver().add_pages(
        [_page("/wiki/Hull_Football_Club", club), _page("/wiki/Hull", club)]
    )
    assert resolver.same_page == {"/wiki/Hull": "/wiki/Hull_Football_Club"}

    def table(*links: str) -> RawTable:
        rows = [[Cell(link[6:], (link,)), Cell("x")] for link in links]
        return RawTable("t", "test", "T", "", "", ["Team", "X"], rows)

    one = table("/wiki/Hull", "/wiki/Leeds_Rhinos")
    assert resolver.resolve(one).rows[0][0].links == ("/wiki/Hull_Football_Club",)
    two = table(
        "/wiki/Hull", "/wiki/Hull_Football_Club"
    )  # the table lists them apart: a town, a club
    assert resolver.resolve(two) is two


@pytest.mark.neo4j
@pytest.mark.shared_data
def test_ingest_resolves_links_and_a_rerun_changes_nothing(
    clean_db: neo4j.Driver, database: str | None, series_folder: Path
) -> None:
    report = run_stage(INGEST, clean_db, database, data=series_folder)
    assert report.notes["links resolved"] > 20
    shared, _, _ = clean_db.execute_query(
        "MATCH (a:Table {table_id: $a})-[:HAS_ROW]->(:Row)-[:ANCHOR]->(e:Entity)"
        "<-[:ANCHOR]-(:Row)<-[:HAS_ROW]-(:Table {table_id: $b}) RETURN count(DISTINCT e) AS n",
        a=SERIES[2],
        b=SERIES[3],
        database_=database,
    )
    assert shared[0]["n"] >= 12  # the teams of both seasons, not their season pages
    again = run_stage(INGEST, clean_db, database, data=series_folder)
    assert again.kept == 0


def test_a_name_the_page_gives_its_thing_names_the_page() -> None:
    # audit 2059 (session 53): "Prince Bira" in the qualifying of two Grands Prix, linking
    # Birabongse Bhanudej, was read as some other, unlinked thing, and the Union task of the two
    # tables missed him; the openings below are the real pages' first words
    resolver = LinkResolver().add_pages(
        [
            _page(
                "/wiki/Birabongse_Bhanudej",
                "Prince Birabongse Bhanudej Bhanubandh ( Thai : พีรพงศ์ภาณุเดช ; 15 July 1914 - "
                "23 December 1985 ) , better known as Prince Bira of Siam ( now Thailand )",
            ),
            _page(
                "/wiki/Rhumba",
                "Rhumba , also known as ballroom rumba , is a genre of ballroom music and dance",
            ),
            _page(
                "/wiki/Uchinoura_Space_Center",
                "The Uchinoura Space Center is a space launch facility in the Japanese town of "
                "Kimotsuki , Kagoshima Prefecture .",
            ),
        ]
    )
    rows = [
        [Cell("Prince Bira", ("/wiki/Birabongse_Bhanudej",)), Cell("Maserati")],
        [Cell("Rumba", ("/wiki/Rhumba",)), Cell("x")],
        [Cell("Kagoshima", ("/wiki/Uchinoura_Space_Center",)), Cell("x")],  # where it lies
    ]
    table = resolver.mark_aliases(RawTable("t", "test", "T", "", "", ["Name", "X"], rows))
    assert [row[0].alias for row in table.rows] == [True, True, False]
    assert [key_links(row[0]) for row in table.rows] == [
        ("/wiki/Birabongse_Bhanudej",),
        ("/wiki/Rhumba",),
        (),
    ]
    assert resolver.aliases == 2
