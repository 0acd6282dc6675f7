"""The quality gate on a real server: each check rejects the task it is about, with its name as
the reason, leaves good tasks alone, and finds nothing new when run again."""

from __future__ import annotations

import json

import neo4j

from seekgraph.synth.leaper.common import LeaperConfig, Target, TaskRecord, write_tasks
from seekgraph.synth.leaper.tasks_basic import build_basic_tasks
from seekgraph.synth.leaper.trees import build_trees
from seekgraph.synth.quality import QualityConfig, run_quality
from seekgraph.synth.shaper.evaluate import KGraph
from seekgraph.synth.shaper.kp import LINKS_TO, Const, KPTask, Triple, Var
from seekgraph.synth.shaper.store import save_tasks
from tests.leaper_data import TABLES
from tests.scaffolding.kgraph import merge_kgraph
from tests.scaffolding.source_tables import write_source_tables

CONFIG = LeaperConfig(similarity="tokens", threshold=0.0)
GOLDING = '[{"name": "William Golding", "entity_id": "/wiki/William_Golding", "attributes": {}}]'


def _bad_task(task_id: str, target: str, question: str, answer_json: str = GOLDING) -> TaskRecord:
    task = TaskRecord(
        task_id=task_id,
        variant="basic",
        question=question,
        answers=json.loads(answer_json),
        targets=[Target("anchor", "entity", target, target)],
        tree={},
        spec={"table_id": "nobel", "relations": []},
    )
    return task


def _statuses(driver: neo4j.Driver) -> dict[str, tuple[str, str | None]]:
    records, _, _ = driver.execute_query(
        "MATCH (t:Task) RETURN t.task_id AS id, t.status AS s, t.reason AS r"
    )
    return {r["id"]: (r["s"], r["r"]) for r in records}


def test_each_check_rejects_its_task(clean_db: neo4j.Driver, database: str | None) -> None:
    write_source_tables(clean_db, TABLES, database)
    build_trees(clean_db, database, CONFIG)
    build_basic_tasks(clean_db, database, CONFIG)
    good = {t for t, (s, _) in _statuses(clean_db).items() if s == "kept"}
    assert good
    clean_db.execute_query(
        "MERGE (t:Entity {entity_id: 'unlinked:total'}) SET t.name = 'Total', t.linked = false "
        "MERGE (k:Entity {entity_id: '/wiki/48_kg'}) SET k.name = '48 kg', k.linked = false",
        database_=database,
    )
    absent = _bad_task("bad:absent", "/wiki/William_Golding", "Which laureates? Give their spouse.")
    absent.spec = {"table_id": "nobel", "relations": ["spouse"]}
    write_tasks(
        clean_db,
        database,
        [
            _bad_task("bad:total", "unlinked:total", "Which rows add up?"),
            _bad_task("bad:invented", "/wiki/48_kg", "Which weight class?"),
            _bad_task("bad:dup-a", "/wiki/William_Golding", "Who wrote it?"),
            _bad_task("bad:dup-b", "/wiki/William_Golding", "Who wrote it?"),
            absent,
        ],
        CONFIG,
    )
    # a KP task whose variable A can only be "Booker", which the question names
    merge_kgraph(
        clean_db,
        KGraph(facts={("/wiki/Byatt", "award", "/wiki/Booker")}),
        database,
    )
    booker = Const("Booker", "/wiki/Booker", "Entity")
    circular = KPTask(
        "shaper:circular",
        (Triple(Var("?"), "award", (Var("V@A"),)), Triple(Var("?"), "award", (booker,))),
        question='Find the answer whose award is entity A and who won "Booker".',
        answer=["Byatt"],
        answer_refs=["/wiki/Byatt"],
        source="seed",
    )
    # a seed of one triple, never expanded: one lookup in one table
    single = KPTask(
        "shaper:single",
        (Triple(Var("?"), "award", (booker,)),),
        question='Who won "Booker"?',
        answer=["Byatt"],
        answer_refs=["/wiki/Byatt"],
        source="seed",
    )
    # two cells of one row of one table: still a lookup, no hop to another page
    year = Const("1990", "year:1990", "Value")
    one_row = KPTask(
        "shaper:one-row",
        (Triple(Var("?"), "award@nobel", (booker,)), Triple(Var("?"), "year@nobel", (year,))),
        question='Which laureate is listed in "Nobel" with award "Booker" and year "1990"?',
        answer=["Byatt"],
        answer_refs=["/wiki/Byatt"],
        source="seed",
    )
    # another cell of the row a clue finds: "What is the stadium of the team ... with location
    # Kalmar?" (the team is a variable, but both triples read its one row)
    kalmar = Const("Kalmar", "/wiki/Kalmar", "Entity")
    other_cell = KPTask(
        "shaper:other-cell",
        (
            Triple(Var("?"), "~stadium@allsvenskan", (Var("V@A"),)),
            Triple(Var("V@A"), "location@allsvenskan", (kalmar,)),
        ),
        question='What is the stadium of the team listed in "Allsvenskan" with location "Kalmar"?',
        answer=["Guldfågeln Arena"],
        answer_refs=["/wiki/Guldfågeln_Arena"],
        source="seed",
    )
    # a chain through a page link: "a laureate whose article links to the article on V@A,
    # the winner of the Booker": related somehow, not in a way anyone asks
    link_hop = KPTask(
        "shaper:link-hop",
        (Triple(Var("?"), LINKS_TO, (Var("V@A"),)), Triple(Var("V@A"), "award", (booker,))),
        question='Which page links to the article on the winner of "Booker"?',
        answer=["Byatt"],
        answer_refs=["/wiki/Byatt"],
        source="seed",
    )
    # a chain through a rank (sample 2066): "a soldier with the rank of the marine who fought
    # at Okinawa" joins two rows on a kind of thing, not on a thing
    private = Const("Mikio Hasemoto", "/wiki/Mikio_Hasemoto", "Entity")
    rank_join = KPTask(
        "shaper:rank-join",
        (
            Triple(Var("?"), "rank@civil_war", (Var("V@A"),)),
            Triple(Var("V@A"), "~rank@world_war_ii", (private,)),
        ),
        question='Which soldier is listed in "Civil War" with the same rank as "Mikio Hasemoto"?',
        answer=["Frederick Phisterer"],
        answer_refs=["/wiki/Frederick_Phisterer"],
        source="seed",
    )
    # the answer is a cell of the clue's own row (sample 2073): "the country in the 2014 table
    # of the club with revenue 438.6 in the 2011 table" is the 2011 row's country
    clean_db.execute_query(
        "UNWIND $tables AS t CREATE (table:Table {table_id: t.id, title: 'Money League'}) "
        "WITH table, t UNWIND t.relations AS r "
        "CREATE (table)-[:HAS_COLUMN]->(:Column {relation: r, header: r})",
        tables=[
            {"id": "money_2011", "relations": ["revenue", "country"]},
            {"id": "money_2014", "relations": ["revenue", "country"]},
        ],
        database_=database,
    )
    revenue = Const("438.6", "number:438.6", "Value")
    shortcut = KPTask(
        "shaper:shortcut",
        (
            Triple(Var("?"), "~country@money_2014", (Var("V@A"),)),
            Triple(Var("V@A"), "revenue@money_2011", (revenue,)),
        ),
        question='What is the country in "2014" of the club with revenue "438.6" in "2011"?',
        answer=["Spain"],
        answer_refs=["/wiki/Spain"],
        source="seed",
    )
    # a chain and its mirror over the same two tables (sample 2065): one shape, asked once
    teagle = Const("Buddy Teagle", "unlinked:buddy teagle", "Entity")
    stegman = Const("Dave Stegman", "/wiki/Dave_Stegman", "Entity")
    mirror_a = KPTask(
        "shaper:mirror-a",
        (
            Triple(Var("?"), "school@aa_1976", (Var("V@A"),)),
            Triple(Var("V@A"), "~school@aa_1962", (teagle,)),
        ),
        question='Which player of "1976" has the same school as "Buddy Teagle" of "1962"?',
        answer=["Guillermo Bonilla"],
        answer_refs=["/wiki/Guillermo_Bonilla"],
        source="seed",
    )
    mirror_b = KPTask(
        "shaper:mirror-b",
        (
            Triple(Var("?"), "school@aa_1962", (Var("V@A"),)),
            Triple(Var("V@A"), "~school@aa_1976", (stegman,)),
        ),
        question='Which player of "1962" has the same school as "Dave Stegman" of "1976"?',
        answer=["Dan Schneider"],
        answer_refs=["/wiki/Dan_Schneider"],
        source="seed",
    )
    # a chain that never leaves one article (sample 2081): "the player whose original club is
    # the new club of Chad Morrison", both tables of "2004 AFL draft"
    clean_db.execute_query(
        "UNWIND $ids AS id CREATE (table:Table {table_id: id, title: '2004 AFL draft'})",
        ids=["afl_draft_0", "afl_draft_1"],
        database_=database,
    )
    morrison = Const("Chad Morrison", "/wiki/Chad_Morrison", "Entity")
    one_page = KPTask(
        "shaper:one-page",
        (
            Triple(Var("?"), "original_club@afl_draft_0", (Var("V@A"),)),
            Triple(Var("V@A"), "~new_club@afl_draft_1", (morrison,)),
        ),
        question='Which player has an original club that is the new club of "Chad Morrison"?',
        answer=["Nathan Thompson"],
        answer_refs=["/wiki/Nathan_Thompson"],
        source="seed",
    )
    save_tasks(
        clean_db,
        [
            circular,
            single,
            one_row,
            other_cell,
            link_hop,
            rank_join,
            shortcut,
            mirror_a,
            mirror_b,
            one_page,
        ],
        database,
    )

    report = run_quality(clean_db, database, QualityConfig())
    statuses = _statuses(clean_db)
    assert statuses["bad:total"] == ("rejected", "summary_answer")
    assert statuses["bad:invented"] == ("rejected", "invented_id")
    assert statuses["bad:dup-a"][0] == "kept"
    assert statuses["bad:dup-b"] == ("rejected", "duplicate_question")
    assert statuses["bad:absent"] == ("rejected", "attribute_absent")
    assert statuses["shaper:circular"] == ("rejected", "circular")
    assert statuses["shaper:single"] == ("rejected", "single_lookup")
    assert statuses["shaper:one-row"] == ("rejected", "single_lookup")
    assert statuses["shaper:other-cell"] == ("rejected", "single_lookup")
    assert statuses["shaper:link-hop"] == ("rejected", "link_hop")
    assert statuses["shaper:rank-join"] == ("rejected", "join_on_kind")
    assert statuses["shaper:shortcut"] == ("rejected", "answer_in_clue_table")
    assert statuses["shaper:mirror-a"][0] == "kept", statuses["shaper:mirror-a"]
    assert statuses["shaper:mirror-b"] == ("rejected", "same_tables")
    assert statuses["shaper:one-page"] == ("rejected", "one_page")
    assert all(statuses[t][0] == "kept" for t in good)
    assert report.rejected == 13
    assert report.notes["check duplicate_question"] == 1

    again = run_quality(clean_db, database, QualityConfig())
    assert again.rejected == 0
    assert again.kept == report.kept
