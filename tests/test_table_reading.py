"""Reading tables right (issue 32 item 3), each rule on real OTT-QA rows of tuning tables (none
is held out by `bench.ottqa_sample.is_heldout`), and the gate checks that catch each mode."""

from __future__ import annotations

import json
from pathlib import Path

import neo4j
import pytest

from bench.ottqa_sample import is_heldout
from seekgraph.graphdb import cypher
from seekgraph.synth.ingest.cell_links import named_links, names_other
from seekgraph.synth.ingest.cell_lists import holds_several, joins_names, listed_links, run_on_name
from seekgraph.synth.ingest.cells import is_placeholder, unlinked_name
from seekgraph.synth.ingest.clean import table_context
from seekgraph.synth.ingest.config import IngestConfig
from seekgraph.synth.ingest.key_cells import key_links
from seekgraph.synth.ingest.readers import read_ottqa
from seekgraph.synth.ingest.records import RawTable
from seekgraph.synth.ingest.table_parts import usual_words
from seekgraph.synth.ingest.tables import ingest_tables
from seekgraph.synth.ingest.values import clean_text
from seekgraph.synth.key_score import is_literal
from seekgraph.synth.keycolumn import choose_key_column
from seekgraph.synth.leaper.common import LeaperConfig, Target, TaskRecord, write_tasks
from seekgraph.synth.quality import QualityConfig, run_quality
from seekgraph.synth.quality_leaper import table_reading_detail

READING_CHECKS = ("key_not_entity", "one_thing_split", "value_of_other", "rows_merged")

IDS = (
    "110_metres_hurdles_0",
    "1950_Italian_Grand_Prix_0",
    "2013_in_association_football_7",
    "2014_in_sports_10",
    "Football_League_First_Division_Manager_of_the_Month_0",
    "1884_New_Zealand_rugby_union_tour_of_New_South_Wales_1",
    "2011_Kazakhstan_Premier_League_1",
    "List_of_the_oldest_churches_in_the_United_States_0",
    "2002_Santos_FC_season_0",
    "China_at_the_2002_Winter_Olympics_0",
    "1996_Brazilian_Grand_Prix_0",
    "2013_in_association_football_9",
    "Southern_United_States_4",
    "List_of_schools_in_West_Moreton_1",
    "List_of_oldest_trees_1",
    "List_of_Catholic_churches_in_the_United_States_38",
    "America_East_Conference_11",
    "2003_in_video_gaming_1",
    "Asuka-Fujiwara_0",
    "2011_Superettan_1",
    "Preseli_transmitting_station_6",
    "1984_World_Junior_Figure_Skating_Championships_2",
    "List_of_new_churches_by_Thomas_Rickman_0",
)


@pytest.fixture(scope="module")
def tables(shared_data: Path) -> dict[str, RawTable]:
    assert not any(is_heldout(t) for t in IDS)
    found = {
        t.table_id: t
        for t in read_ottqa(shared_data / "ottqa" / "tables.train.jsonl.gz")
        if isinstance(t, RawTable) and t.table_id in IDS
    }
    assert set(found) == set(IDS)
    return found


@pytest.mark.shared_data
def test_a_cell_lists_several_things_only_when_its_text_does(
    tables: dict[str, RawTable],
) -> None:
    hurdlers = tables["110_metres_hurdles_0"].rows[3][2]
    assert hurdlers.text.startswith("Willie Davenport ( USA ) Leon Coleman")
    assert key_links(hurdlers) == ("/wiki/Willie_Davenport", "/wiki/Leon_Coleman")
    car = tables["1950_Italian_Grand_Prix_0"].rows[7][3]
    assert car.text == "Talbot-Lago - Talbot"  # a chassis and its engine: one car
    assert not joins_names(car.text, car.links)  # Talbot-Lago's name holds both sides
    assert listed_links(car, named_links(car)) == ("/wiki/Talbot-Lago",)
    assert key_links(car) == ("/wiki/Talbot-Lago",)


@pytest.mark.shared_data
def test_a_value_keeps_its_text_when_the_link_names_something_else(
    tables: dict[str, RawTable],
) -> None:
    season = tables["2013_in_association_football_7"].rows[6][4]
    games = tables["2014_in_sports_10"].rows[9][4]
    assert (season.text, season.links) == ("2011-12", ("/wiki/2011–12_Liga_I_Feminin",))
    assert names_other(season.text, season.links[0])
    assert (games.text, games.links) == (
        "Thailand",
        ("/wiki/Thailand_at_the_2014_Asian_Beach_Games",),
    )
    assert names_other(games.text, games.links[0])
    hurdler = tables["110_metres_hurdles_0"].rows[3][2]
    assert not any(names_other(hurdler.text, link) for link in hurdler.links)


@pytest.mark.shared_data
def test_names_joined_by_a_dash_are_one_thing_known_by_its_text(
    tables: dict[str, RawTable],
) -> None:
    car = tables["1996_Brazilian_Grand_Prix_0"].rows[14][3]  # the team and its engine
    assert (car.text, car.links) == (
        "Ligier - Mugen-Honda",
        ("/wiki/Equipe_Ligier", "/wiki/Mugen-Honda"),
    )
    assert joins_names(car.text, named_links(car))  # neither page is the car: a text value
    areas = tables["Southern_United_States_4"]
    key = choose_key_column(areas.header, areas.rows, context=table_context(areas))
    # the section lists "combined statistical areas"; "State(s)" may hold several to a row
    assert key is not None and areas.header[key.index] == "Combined Statistical Area"
    states = areas.rows[0][2]  # "State(s)": here the dashes separate a list of states
    assert states.text == "DC - MD - VA - WV - PA" and holds_several(areas.header[2])


@pytest.mark.shared_data
def test_a_key_cell_naming_a_thing_after_its_link_is_that_thing(
    tables: dict[str, RawTable],
) -> None:
    pack = tables["2003_in_video_gaming_1"].rows[0][0]
    assert (pack.text, pack.links) == ("Grand Theft Auto Double Pack", ("/wiki/Grand_Theft_Auto",))
    assert key_links(pack) == ()  # the pack, not the series: an unlinked entity
    site = tables["Asuka-Fujiwara_0"].rows[9][0]
    assert site.links == ("/wiki/Asuka-dera",) and key_links(site) == ()
    assert unlinked_name(clean_text(site.text)) == "Asuka-dera Site"  # no script, no reading


@pytest.mark.shared_data
def test_a_table_of_games_has_no_key_column(tables: dict[str, RawTable]) -> None:
    finals = tables["America_East_Conference_11"]
    assert finals.header[:4] == ["Year", "Winner", "Score", "Opponent"]
    assert finals.header[4] == "Reggie Lewis Most Outstanding Player"
    # the rows are finals: the winner, the opponent and the best player each took part in one,
    # and no column is what a row is (the best player's "opponent" would be nonsense)
    assert choose_key_column(finals.header, finals.rows, context=table_context(finals)) is None


@pytest.mark.shared_data
def test_a_page_that_is_not_the_cells_thing_leaves_the_text(
    tables: dict[str, RawTable],
) -> None:
    nation = tables["2013_in_association_football_9"].rows[1][0]
    assert (nation.text, nation.links) == ("Fiji", ("/wiki/Football_in_Fiji",))
    assert names_other(nation.text, nation.links[0])  # football in Fiji is not Fiji
    town = tables["List_of_Catholic_churches_in_the_United_States_38"].rows[1][3]
    assert clean_text(town.text) == "Cooper Settlement, Pennsylvania"
    assert town.links == ("/wiki/Cooper_Township,_Clearfield_County,_Pennsylvania",)
    assert names_other(clean_text(town.text), town.links[0])  # a settlement in the township


@pytest.mark.shared_data
def test_link_marks_and_header_echoes_are_no_value(tables: dict[str, RawTable]) -> None:
    schools = tables["List_of_schools_in_West_Moreton_1"]
    column = schools.header.index("Website")
    echoes = [row[column] for row in schools.rows if row[column].text.strip()]
    assert echoes and all(is_placeholder(clean_text(c.text), "Website") for c in echoes)
    trees = tables["List_of_oldest_trees_1"]
    tagged = [c.text for row in trees.rows for c in row if "[ pt ]" in c.text]
    assert tagged and all("[" not in clean_text(t) for t in tagged)


@pytest.mark.shared_data
def test_sort_keys_are_not_shown(tables: dict[str, RawTable]) -> None:
    month = tables["Football_League_First_Division_Manager_of_the_Month_0"].rows[0][1]
    assert month.text == "1996.6 1996"
    assert clean_text(month.text) == "1996"
    assert names_other(clean_text(month.text), month.links[0])  # a season page behind a year
    assert clean_text("=20") == "20" and clean_text("T-62") == "T-62"


@pytest.mark.shared_data
def test_records_and_scores_are_never_the_key(tables: dict[str, RawTable]) -> None:
    score = tables["1884_New_Zealand_rugby_union_tour_of_New_South_Wales_1"].rows[0][5]
    assert score.text == "33-0" and is_literal(score.text)
    assert is_literal("12–4") and is_literal("W 3–1") and not is_literal("Team Sky")


@pytest.mark.shared_data
def test_the_section_says_what_the_table_lists(tables: dict[str, RawTable]) -> None:
    table = tables["2011_Kazakhstan_Premier_League_1"]
    assert table.header[:2] == ["Team", "Manager"] and "Personnel" in table.section_title
    # the team cells are unlinked and the managers linked: the section ("Teams") decides
    assert not any(row[0].links for row in table.rows)
    with_context = choose_key_column(table.header, table.rows, context=table_context(table))
    without = choose_key_column(table.header, table.rows)
    assert with_context is not None and with_context.index == 0
    assert without is not None and without.index == 1


@pytest.mark.shared_data
def test_a_header_row_that_is_data_is_read_as_data(tables: dict[str, RawTable]) -> None:
    churches = tables["List_of_the_oldest_churches_in_the_United_States_0"]
    assert churches.header == [""] * len(churches.header)
    assert churches.rows[0][0].text == "Cathedral of San Juan Bautista"
    assert churches.rows[1][0].text == "Porta Coeli Church"
    santos = tables["2002_Santos_FC_season_0"]  # linked column names stay a header
    assert santos.header == ["Pos", "Name", "Moving from"]


def _task(answer: list[dict[str, object]], asked: list[str]) -> dict[str, object]:
    return {
        "task_id": "t",
        "variant": "basic",
        "question": "q",
        "answer_json": json.dumps(answer),
        "spec_json": json.dumps({"table_id": "T", "asked": asked}),
        "tree_json": "{}",
    }


def test_gate_checks_for_each_way_a_table_is_read_wrong() -> None:
    tables = {
        "T": {
            "rows": [
                {"anchors": ["/wiki/Talbot-Lago", "/wiki/Talbot"], "text": "Talbot-Lago - Talbot"},
                {"anchors": ["/wiki/A"], "text": "12–4"},
                {"anchors": ["/wiki/A"], "text": "13–2"},
            ]
        }
    }
    answer = [
        {"name": "Talbot-Lago", "entity_id": "/wiki/Talbot-Lago", "attributes": {}},
        {"name": "Talbot", "entity_id": "/wiki/Talbot", "attributes": {}},
        {
            "name": "A",
            "entity_id": "/wiki/A",
            "attributes": {
                "year": ["2011–12 Liga I Feminin", "1996"],
                "nation": ["Thailand at the 2014 Asian Beach Games"],
            },
        },
    ]
    found = table_reading_detail(_task(answer, ["year", "nation"]), tables)
    assert set(found) == {"key_not_entity", "one_thing_split", "value_of_other", "rows_merged"}
    good = {"T": {"rows": [{"anchors": ["/wiki/A"], "text": "A"}]}}
    clean = [{"name": "A", "entity_id": "/wiki/A", "attributes": {"year": ["1996"]}}]
    assert table_reading_detail(_task(clean, ["year"]), good) == {}


@pytest.mark.shared_data
def test_gate_reads_the_ingested_rows_and_catches_a_split_key_cell(
    clean_db: neo4j.Driver, database: str | None, tables: dict[str, RawTable]
) -> None:
    """Ingest a real table with the current rules and ask for its anchors: the reading checks
    pass. Then give the relay row an anchor its key cell does not name (as an older ingest
    split cells): the gate rejects the task as one_thing_split and counts it in the report."""
    table = tables["China_at_the_2002_Winter_Olympics_0"]
    ingest_tables(clean_db, [table], IngestConfig(), database=database)
    rows = cypher.read(
        clean_db, "quality/find_table_selections", database=database, table_ids=[table.table_id]
    )
    read = {r["text"]: sorted(r["anchors"]) for r in rows[0]["rows"]}
    pair = next(t for t in read if t.startswith("Shen Xue"))
    assert read[pair] == ["/wiki/Shen_Xue", "/wiki/Zhao_Hongbo"]
    anchors = sorted({a for ids in read.values() for a in ids})
    answer = [{"name": a, "entity_id": a, "attributes": {}} for a in anchors]
    task = TaskRecord(
        task_id="basic:medallists",
        variant="basic",
        question="Which medallists are listed?",
        answers=answer,
        targets=[Target("anchor", "entity", a, a) for a in anchors],
        tree={},
        spec={"table_id": table.table_id, "relations": []},
    )
    config = LeaperConfig(similarity="tokens", threshold=0.0)
    write_tasks(clean_db, database, [task], config)
    report = run_quality(clean_db, database, QualityConfig())
    assert all(report.notes[f"check {c}"] == 0 for c in READING_CHECKS)

    relay = next(t for t, ids in read.items() if len(ids) > 2)
    clean_db.execute_query(
        "MATCH (:Table {table_id: $tid})-[:HAS_ROW]->(r:Row)-[:HAS_CELL {text: $text}]->() "
        "MERGE (x:Entity {entity_id: '/wiki/Figure_skating'}) SET x.name = 'Figure skating' "
        "MERGE (r)-[:ANCHOR]->(x)",
        tid=table.table_id,
        text=relay,
        database_=database,
    )
    again = run_quality(clean_db, database, QualityConfig())
    assert again.notes["check one_thing_split"] == 1
    assert again.notes["check key_not_entity"] == 0
    status, _, _ = clean_db.execute_query(
        "MATCH (t:Task {task_id: 'basic:medallists'}) RETURN t.status AS s, t.reason AS r",
        database_=database,
    )
    assert (status[0]["s"], status[0]["r"]) == ("rejected", "one_thing_split")


def test_a_dated_page_behind_an_undated_cell_is_not_the_value() -> None:
    """Real cells of tuning tables: a team season page behind a school's name, a league season
    behind a placing; the same season written with another dash is the page itself."""
    assert names_other("Tulsa", "/wiki/1969_Tulsa_Golden_Hurricane_football_team")
    assert names_other("2nd in Serie D Girone G", "/wiki/2015–16_Serie_D")
    assert not names_other("2011-12 MiWay T20 Challenge", "/wiki/2011–12_MiWay_T20_Challenge")


def test_one_row_in_each_table_of_a_union_is_no_merge() -> None:
    """A Union answer stands in one row of each of its tables; its value lists differ in length
    because the tables differ (Nobel gives one year, Booker another), not because rows of one
    table were merged. Two rows of one table with lists that no longer line up still are."""
    tables = {
        "nobel": {"rows": [{"anchors": ["/wiki/W_G"], "text": "William Golding"}]},
        "booker": {"rows": [{"anchors": ["/wiki/W_G"], "text": "William Golding"}]},
    }
    answer = [
        {
            "name": "William Golding",
            "entity_id": "/wiki/W_G",
            "attributes": {"year": ["1983", "1980"], "country": ["United Kingdom"]},
        }
    ]
    union = {
        **_task(answer, ["year", "country"]),
        "variant": "union",
        "spec_json": json.dumps({"table_ids": ["nobel", "booker"], "asked": ["year", "country"]}),
    }
    assert "rows_merged" not in table_reading_detail(union, tables)
    tables["booker"]["rows"].append({"anchors": ["/wiki/W_G"], "text": "William Golding"})
    assert "rows_merged" in table_reading_detail(union, tables)


def test_a_record_that_gives_its_rows_apart_is_no_merge() -> None:
    """Two rows of one table under one key (two editions won): the gold record keeps each
    row's values together (``rows``), so the pairing is not lost and the gate keeps it."""
    tables = {
        "T": {
            "rows": [
                {"anchors": ["/wiki/A"], "text": "A"},
                {"anchors": ["/wiki/A"], "text": "A"},
            ]
        }
    }
    merged = {
        "name": "A",
        "entity_id": "/wiki/A",
        "attributes": {"year": ["1980", "1983"], "club": ["X"]},
    }
    assert "rows_merged" in table_reading_detail(_task([merged], ["year", "club"]), tables)
    paired = {
        **merged,
        "rows": [
            {"table": "T", "attributes": {"year": ["1980"], "club": ["X"]}},
            {"table": "T", "attributes": {"year": ["1983"]}},
        ],
    }
    assert table_reading_detail(_task([paired], ["year", "club"]), tables) == {}


def test_a_relay_team_of_names_run_together_fails_the_gate() -> None:
    """Rows of "Indonesia at the Asian Games" (medalists): a relay team's four names run
    together in one key cell, none or only some linked. Its unlinked members cannot be listed
    apart, so a task listing the column's people is rejected (``names_glued``); a table of
    single names is left alone."""
    rows = [
        {"anchors": ["/wiki/Mohammad_Sarengat"], "text": "Mohammad Sarengat"},
        {"anchors": ["/wiki/Supriati_Sutono"], "text": "Supriati Sutono"},
        {"anchors": ["unlinked:emilia nova"], "text": "Emilia Nova"},
    ]
    answer = [{"name": "Supriati Sutono", "entity_id": "/wiki/Supriati_Sutono", "attributes": {}}]
    assert "names_glued" not in table_reading_detail(_task(answer, []), {"T": {"rows": rows}})
    glued = {
        "anchors": ["unlinked:sugiri supardi wahjudi jootje oroh"],
        "text": "Sugiri Supardi Wahjudi Jootje Oroh",
    }
    found = table_reading_detail(_task(answer, []), {"T": {"rows": [*rows, glued]}})
    assert "Sugiri" in found["names_glued"]
    partly = {
        "anchors": ["/wiki/Milovan_Savić", "/wiki/Josip_Alebić"],
        "text": "Ivica Ivičak Milorad Čikić Milovan Savić Josip Alebić",
    }
    assert "names_glued" in table_reading_detail(
        _task(answer, []), {"T": {"rows": [*rows, partly]}}
    )


@pytest.mark.shared_data
def test_two_names_run_together_after_a_link_are_two_values(
    clean_db: neo4j.Driver, database: str | None, tables: dict[str, RawTable]
) -> None:
    """Sample 2037's "Esmaeil Sedigh Joel Villarino" (two head coaches, the first linked) on a
    tuning table: a club's "Head Coach" cell naming two coaches gives the row both, the linked
    one as its entity and the other as a text value; a column whose every cell reads "PAL
    System I" (linking PAL) keeps it one name."""
    clubs = tables["2011_Superettan_1"]
    coach = clubs.header.index("Head Coach")
    usual = usual_words(clubs)[coach]
    r, cell = next(
        (r, row[coach]) for r, row in enumerate(clubs.rows) if row[coach].text.startswith("Bo W")
    )
    assert run_on_name(clean_text(cell.text), "/wiki/Bo_Wålemark", usual) == "Örjan Glans"
    ingest_tables(clean_db, [clubs], IngestConfig(), database=database)
    facts = clean_db.execute_query(
        "MATCH ()-[f:FACT {table_id: $t, row: $r, column: $c}]->(v) "
        "RETURN coalesce(v.entity_id, v.value_id) AS target, f.text AS said",
        t=clubs.table_id,
        r=r,
        c=coach,
        database_=database,
    ).records
    said = sorted((r["target"], r["said"]) for r in facts)
    assert said == [("/wiki/Bo_Wålemark", "Bo Wålemark"), ("text:örjan glans", "Örjan Glans")]
    station = tables["Preseli_transmitting_station_6"]
    system = station.header.index("System")
    pal = next(row[system] for row in station.rows if row[system].text == "PAL System I")
    assert run_on_name(pal.text, pal.links[0], usual_words(station)[system]) == ""


def _anchor_names(
    driver: neo4j.Driver, database: str | None, table: RawTable
) -> dict[int, list[str]]:
    """Ingest `table` alone; the names of each row's anchors (row index -> sorted names)."""
    ingest_tables(driver, [table], IngestConfig(), database=database)
    rows = driver.execute_query(
        "MATCH (r:Row {table_id: $t})-[:ANCHOR]->(e:Entity) "
        "RETURN r.index AS row, collect(e.name) AS names",
        t=table.table_id,
        database_=database,
    ).records
    return {r["row"]: sorted(r["names"]) for r in rows}


@pytest.mark.shared_data
def test_an_unlinked_pair_of_names_is_two_people(
    clean_db: neo4j.Driver, database: str | None, tables: dict[str, RawTable]
) -> None:
    """Sample 2038's pairs skaters (read blind, then tuned on): the linked pairs of the "Name"
    column are two skaters each, and so is an unlinked "Olga Neizvestnaya / Sergei Hudyakov"
    and a "Jan Waggoner / Todd Waggoner" linking Todd alone, each named by their own name."""
    names = _anchor_names(
        clean_db, database, tables["1984_World_Junior_Figure_Skating_Championships_2"]
    )
    assert names[0] == ["Ingo Steuer", "Manuela Landgraf"]  # linked: two entities already
    assert names[2] == ["Olga Neizvestnaya", "Sergei Hudyakov"]
    assert names[9] == ["Jan Waggoner", "Todd Waggoner"]  # only Todd linked


@pytest.mark.shared_data
def test_one_unlinked_name_at_two_places_is_two_things(
    clean_db: neo4j.Driver, database: str | None, tables: dict[str, RawTable]
) -> None:
    """Sample 2039's Rickman churches (read blind, then tuned on): "Christ Church" in
    Gloucester and "Christ Church" in Carlisle, both unlinked, were one answer with both
    dates; they are two, each named with its place. An unlinked name given once keeps its
    plain name."""
    names = {
        row: anchors[0]
        for row, anchors in _anchor_names(
            clean_db, database, tables["List_of_new_churches_by_Thomas_Rickman_0"]
        ).items()
    }
    assert names[7] == "Christ Church (Gloucester)"
    assert names[19] == "Christ Church (Carlisle)"
    assert names[4] == "St George's Church"  # the one unlinked St George's: no place added
