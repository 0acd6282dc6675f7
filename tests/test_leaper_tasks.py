"""WebLeaper trees and the three task variants on a small source graph: exact answer sets,
proofs that reject wrong tasks, idempotent re-runs, the held-out split and the JSONL export."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import neo4j
import pytest

from seekgraph.graphdb import cypher
from seekgraph.synth.leaper.common import LeaperConfig, Target, TaskRecord
from seekgraph.synth.leaper.export import export_tasks
from seekgraph.synth.leaper.proofs import prove_reverse, prove_union
from seekgraph.synth.leaper.tasks_basic import build_basic_tasks
from seekgraph.synth.leaper.tasks_reverse import build_reverse_tasks
from seekgraph.synth.leaper.tasks_union import build_union_tasks
from seekgraph.synth.leaper.trees import build_trees
from seekgraph.synth.split import HELDOUT_PERCENT, source_heldout
from tests.leaper_data import TABLES, ent, year
from tests.scaffolding.source_tables import SourceRow, write_source_tables

CONFIG = LeaperConfig(similarity="tokens", threshold=0.0, min_relations=2, min_reverse_answers=1)


def _counts(driver: neo4j.Driver) -> dict[str, int]:
    records, _, _ = driver.execute_query(
        "MATCH (n) WITH labels(n)[0] AS label, count(*) AS n RETURN label, n"
    )
    nodes = {r["label"]: r["n"] for r in records}
    records, _, _ = driver.execute_query("MATCH ()-[r]->() RETURN count(r) AS n")
    nodes["_rels"] = records[0]["n"]
    nodes.pop("StageRun", None)
    return nodes


def _all_stages(driver: neo4j.Driver, database: str | None) -> list[int]:
    reports = [
        build_trees(driver, database, CONFIG),
        build_basic_tasks(driver, database, CONFIG),
        build_union_tasks(driver, database, CONFIG),
        build_reverse_tasks(driver, database, CONFIG),
    ]
    return [r.kept for r in reports]


def _tasks(driver: neo4j.Driver, variant: str) -> list[dict]:
    return cypher.read(driver, "leaper/find_leaper_tasks", variants=[variant])


@pytest.fixture
def graph(clean_db: neo4j.Driver, database: str | None) -> neo4j.Driver:
    write_source_tables(clean_db, TABLES, database)
    return clean_db


def test_trees_basic_union_reverse_exact(graph: neo4j.Driver, database: str | None) -> None:
    kept = _all_stages(graph, database)
    assert kept[0] == 3  # the tiny table has too few anchors
    records, _, _ = graph.execute_query(
        "MATCH (t:Tree {tree_id: 'tree:nobel'}) RETURN t.root AS root, t.relations AS rels"
    )
    assert records[0]["root"] == "Nobel laureates in Literature"  # section adds nothing
    assert records[0]["rels"] == ["language", "nationality", "year"]

    basic = {json.loads(t["tree_json"])["table_id"]: t for t in _tasks(graph, "basic")}
    assert sorted(basic) == ["booker", "nobel", "states"]
    nobel = {a["entity_id"] for a in json.loads(basic["nobel"]["answer_json"])}
    assert nobel == {
        "/wiki/William_Golding",
        "/wiki/Nadine_Gordimer",
        "/wiki/Kazuo_Ishiguro",
        "/wiki/Orhan_Pamuk",
        "/wiki/J._M._Coetzee",
    }
    # R = 5 anchors + 5 years + 3 nationalities + 2 languages
    assert basic["nobel"]["n_targets"] == 15

    unions = _tasks(graph, "union")
    assert len(unions) == 1
    union = unions[0]
    assert json.loads(union["tree_json"])["relations"] == ["nationality", "year"]
    assert {a["entity_id"] for a in json.loads(union["answer_json"])} == {
        "/wiki/William_Golding",
        "/wiki/Nadine_Gordimer",
        "/wiki/Kazuo_Ishiguro",
    }

    reverse = _tasks(graph, "reverse-union")
    answers = {
        json.loads(t["tree_json"])["bridge"]: {a["entity_id"] for a in json.loads(t["answer_json"])}
        for t in reverse
    }
    # the pivot is single-valued (year has two values per bridge: one per table), so it is
    # nationality; the answers are every other anchor of the family's tables sharing it.
    # Densest first, two bridges: Golding and Ishiguro (UK, 2 others each; Gordimer's South
    # Africa has 1).
    assert answers == {
        "/wiki/Kazuo_Ishiguro": {"/wiki/William_Golding", "/wiki/Hilary_Mantel"},
        "/wiki/William_Golding": {"/wiki/Kazuo_Ishiguro", "/wiki/Hilary_Mantel"},
    }
    for t in reverse:
        tree = json.loads(t["tree_json"])
        holders = cypher.read(
            graph,
            "leaper/find_clue_holders",
            limit=5,
            clues=[
                {
                    "relation": c["relation"],
                    "id": c["id"],
                    "kind": "entity" if c["id"].startswith("/wiki/") else "value",
                }
                for c in tree["clues"]
            ],
        )
        assert holders[0]["holders"] == [tree["bridge"]]
    rejected, _, _ = graph.execute_query(
        "MATCH (t:Task {variant: 'reverse-union', status: 'rejected'}) RETURN t.reason AS r"
    )
    assert [r["r"] for r in rejected] == []

    prov, _, _ = graph.execute_query(
        "MATCH (t:Task {variant: 'union', status: 'kept'})-[:BUILT_FROM]->(:Biclique)"
        "-[:HAS_MEMBER]->(:Tree)-[:FROM_TABLE]->(tb:Table) RETURN collect(tb.table_id) AS ids"
    )
    assert sorted(prov[0]["ids"]) == ["booker", "nobel"]


def test_rerun_adds_nothing(graph: neo4j.Driver, database: str | None) -> None:
    _all_stages(graph, database)
    before = _counts(graph)
    again = _all_stages(graph, database)
    assert again == [0, 0, 0, 0]
    assert _counts(graph) == before


def test_union_resumes_by_topic_group(graph: neo4j.Driver, database: str | None) -> None:
    build_trees(graph, database, CONFIG)
    first = build_union_tasks(graph, database, CONFIG)
    records, _, _ = graph.execute_query(
        "MATCH (g:TopicGroup) OPTIONAL MATCH (g)-[:HAS_BICLIQUE]->(b:Biclique) "
        "RETURN g.status AS status, g.n_bicliques AS n, count(b) AS linked"
    )
    assert [(r["status"], r["n"]) for r in records] == [("searched", records[0]["linked"])]
    assert records[0]["n"] >= 1
    # a finished group is skipped without searching it again
    again = build_union_tasks(graph, database, CONFIG)
    assert (again.kept, again.skipped) == (0, records[0]["n"])
    # a run killed inside the group: its marker says 'searching' and a task is missing
    before = _counts(graph)
    graph.execute_query(
        "MATCH (g:TopicGroup) SET g.status = 'searching' WITH g "
        "MATCH (t:Task {variant: 'union', status: 'kept'}) WITH t LIMIT 1 DETACH DELETE t"
    )
    resumed = build_union_tasks(graph, database, CONFIG)
    assert resumed.kept == 1
    assert _counts(graph) == before
    assert first.kept >= 1


def test_proofs_reject_wrong_answers(graph: neo4j.Driver, database: str | None) -> None:
    _all_stages(graph, database)
    wrong = TaskRecord(
        task_id="t-wrong",
        variant="union",
        question="q",
        answers=[{"name": "Hilary Mantel", "entity_id": "/wiki/Hilary_Mantel"}],
        targets=[Target("answer", "entity", "/wiki/Hilary_Mantel", "Hilary Mantel")],
        tree={},
        spec={"table_ids": ["nobel", "booker"], "relations": ["year"]},
    )
    assert prove_union(graph, database, [wrong]) == 1
    assert (wrong.status, wrong.reason) == ("rejected", "answer_mismatch")
    ambiguous = TaskRecord(
        task_id="t-amb",
        variant="reverse-union",
        question="q",
        answers=[],
        targets=[],
        tree={},
        spec={
            "bridge": "/wiki/William_Golding",
            "table_ids": ["nobel", "booker"],
            "pivot_relation": "nationality",
            "pivot_id": "/wiki/United_Kingdom",
            "clues": [{"relation": "language", "kind": "entity", "id": "/wiki/English_language"}],
        },
    )
    assert prove_reverse(graph, database, [ambiguous]) == 1
    assert ambiguous.reason == "clues_not_unique"


def test_split_holds_out_about_a_fifth_of_tables_deterministically() -> None:
    ids = [f"table:{i}" for i in range(2000)]
    share = sum(source_heldout(i, HELDOUT_PERCENT) for i in ids) / len(ids)
    assert 0.17 < share < 0.23
    again = [source_heldout(i, HELDOUT_PERCENT) for i in ids[:50]]
    assert [source_heldout(i, HELDOUT_PERCENT) for i in ids[:50]] == again


def test_export_jsonl(graph: neo4j.Driver, database: str | None, tmp_path: Path) -> None:
    _all_stages(graph, database)
    path = tmp_path / "tasks.jsonl"
    n = export_tasks(graph, database, path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert n == len(lines) >= 5
    assert {x["variant"] for x in lines} == {"basic", "union", "reverse-union"}
    for x in lines:
        assert set(x) >= {
            "id",
            "variant",
            "question",
            "answers",
            "targets",
            "tree",
            "provenance",
            "split",
        }
        assert x["provenance"]["tables"]
        answer_ids = {a["entity_id"] for a in x["answers"]}
        target_ids = {t["id"] for t in x["targets"]}
        assert answer_ids <= target_ids


def test_a_question_too_long_to_ask_or_index_is_rejected_and_stored_cut(
    clean_db: neo4j.Driver, database: str | None
) -> None:
    """At 10x OTT-QA a Union over dozens of tables named each one: an 11,167-byte question
    that the graph's index on Task.question refused, which stopped the stage."""
    from seekgraph.graphdb.stages import StageReport
    from seekgraph.synth.leaper.common import record_tasks

    tables = ", ".join(f'"Championships {i}" (section "Results -- Pairs")' for i in range(300))
    long = TaskRecord(
        "leaper-long", "union", f"Which countries are listed in {tables}?", [], [], {}, {}
    )
    short = TaskRecord("leaper-short", "union", "Which countries won both A and B?", [], [], {}, {})
    rejected = TaskRecord("leaper-gone", "union", long.question + " again", [], [], {}, {})
    rejected.reject("empty_answer")
    report = StageReport("leaper-union")
    record_tasks(clean_db, database, [long, short, rejected], CONFIG, report)
    rows = {
        r["id"]: r
        for r in clean_db.execute_query(
            "MATCH (t:Task) RETURN t.task_id AS id, t.status AS status, t.reason AS reason, "
            "size(t.question) AS n",
            database_=database,
        ).records
    }
    assert len(long.question) == CONFIG.max_question_chars
    assert (rows["leaper-long"]["status"], rows["leaper-long"]["reason"]) == (
        "rejected",
        "question_too_long",
    )
    assert rows["leaper-long"]["n"] == CONFIG.max_question_chars
    assert rows["leaper-gone"]["reason"] == "empty_answer"  # its own reason stays
    assert rows["leaper-gone"]["n"] == CONFIG.max_question_chars
    assert rows["leaper-short"]["status"] == "kept"
    assert report.reasons == {"question_too_long": 1, "empty_answer": 1}


def test_union_rerun_reads_the_recorded_grouping_until_a_root_changes(
    graph: neo4j.Driver, database: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The topic grouping (which embeds every root) is recorded by a digest of its inputs: a
    re-run over the same trees computes none; a changed root computes it again, once."""
    import seekgraph.synth.leaper.union_groups as union

    calls: list[int] = []
    real = union.topic_groups

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(union, "topic_groups", counted)
    build_trees(graph, database, CONFIG)
    first = build_union_tasks(graph, database, CONFIG)
    build_union_tasks(graph, database, CONFIG)
    assert len(calls) == 1 and first.notes["topic groups"] >= 1
    graph.execute_query("MATCH (t:Tree) WITH t ORDER BY t.tree_id LIMIT 1 SET t.root = 'Moons'")
    again = build_union_tasks(graph, database, CONFIG)
    assert len(calls) == 2 and again.notes["topic groups"] == first.notes["topic groups"]
    # only the current inputs' grouping is kept
    records, _, _ = graph.execute_query("MATCH (g:TopicGrouping) RETURN count(g) AS n")
    assert records[0]["n"] == 1


def test_reverse_pivots_and_clues_are_descriptive_and_clues_hold_in_one_row(
    graph: neo4j.Driver, database: str | None
) -> None:
    from seekgraph.synth.leaper.tasks_reverse import _Union, pivot_candidates

    def fact(entity: str, relation: str, kind: str, value: str) -> dict[str, str]:
        return {"entity_id": entity, "relation": relation, "kind": kind, "id": value,
                "name": value.split(":", 1)[-1], "table_id": "t"}  # fmt: skip

    facts = [
        fact(e, "points", "value", f"number:{p}") for e, p in (("a", 3), ("b", 3), ("c", 3))
    ] + [
        fact(e, "country", "entity", f"/wiki/{c}") for e, c in (("a", "X"), ("b", "X"), ("c", "Y"))
    ]
    union = _Union("u", {}, ["t"], ["points", "country"], [], "team", "teams", ["a"],
                   {}, facts, {}, {})  # fmt: skip
    # "points" would give the densest pivot (two others share 3), but a count is no description
    assert [(c[1], c[2]) for c in pivot_candidates(union)] == [("a", "country")]
    # a country every team of the family shares selects nothing: no pivot
    facts[-1] = fact("c", "country", "entity", "/wiki/X")
    union = _Union("u", {}, ["t"], ["points", "country"], [], "team", "teams", ["a"],
                   {}, facts, {}, {})  # fmt: skip
    assert pivot_candidates(union) == []
    # every kept task of the fixture: each clue holds in one and the same row of one table
    _all_stages(graph, database)
    for task in _tasks(graph, "reverse-union"):
        spec = json.loads(task["spec_json"])
        rows, _, _ = graph.execute_query(
            "UNWIND $clues AS c MATCH (:Entity {entity_id: $bridge})-[f:FACT "
            "{relation: c.relation}]->(v) WHERE coalesce(v.entity_id, v.value_id) = c.id "
            "AND f.table_id IN $tables RETURN c.id AS clue, collect([f.table_id, f.row]) AS at",
            bridge=spec["bridge"], clues=spec["clues"], tables=spec["table_ids"],
        )  # fmt: skip
        shared = set.intersection(*({tuple(x) for x in r["at"]} for r in rows))
        assert len(rows) == len(spec["clues"]) and shared, task["question"]


LAUREATES = {"/wiki/William_Golding", "/wiki/Nadine_Gordimer", "/wiki/Kazuo_Ishiguro"}


def _union_with_one_unlinked_church(
    driver: neo4j.Driver,
    database: str | None,
    titles: dict[str, str],
    places: dict[str, str] | None = None,
) -> set[str]:
    """The answer ids of the one Union over the Nobel and Booker tables, each given an
    unlinked "St Wilfrid's Church" row (and the titles in `titles`, by table id; the church's
    nationality in `places`, by table id, else the United Kingdom)."""
    places = places or {}

    def church(table_id: str) -> SourceRow:
        return SourceRow(
            "unlinked:st wilfrid's church",
            "St Wilfrid's Church",
            [year("1990"), ent("nationality", places.get(table_id, "United_Kingdom"))],
        )

    tables = [
        replace(t, rows=[*t.rows, church(t.table_id)], title=titles.get(t.table_id, t.title))
        if t.table_id in ("nobel", "booker")
        else t
        for t in TABLES
    ]
    write_source_tables(driver, tables, database)
    driver.execute_query(
        "MATCH (e:Entity) WHERE e.entity_id STARTS WITH 'unlinked:' SET e.linked = false",
        database_=database,
    )
    _all_stages(driver, database)
    unions = _tasks(driver, "union")
    assert len(unions) == 1
    return {a["entity_id"] for a in json.loads(unions[0]["answer_json"])}


def test_an_unlinked_name_is_no_shared_answer_across_articles(
    clean_db: neo4j.Driver, database: str | None
) -> None:
    """Two articles' unlinked "St Wilfrid's Church" are two churches (audit of session 40): a
    Union over tables of different titles shares only linked entities, and its proof agrees."""
    assert _union_with_one_unlinked_church(clean_db, database, {}) == LAUREATES


def test_an_unlinked_name_is_a_shared_answer_across_one_series(
    clean_db: neo4j.Driver, database: str | None
) -> None:
    """Whole-corpus audit (session 48): the 1948 and 1952 seasons' unlinked "Universidad" is
    one club. Articles of one series (titles that differ only in their years or numbers)
    share unlinked names too, and the proof agrees; other articles still do not."""
    titles = {"nobel": "1990 Literature laureates", "booker": "1991 Literature laureates"}
    answers = _union_with_one_unlinked_church(clean_db, database, titles)
    assert answers == LAUREATES | {"unlinked:st wilfrid's church"}


def test_one_unlinked_name_at_two_places_is_two_things(
    clean_db: neo4j.Driver, database: str | None
) -> None:
    """Whole-corpus read (session 54): "Bowscale Tarn" of Marlborough and of the Hurunui
    District are two lakes. Within one series, an unlinked name the tables give different
    places (here nationalities) is no shared answer, and the proof agrees."""
    titles = {"nobel": "1990 Literature laureates", "booker": "1991 Literature laureates"}
    places = {"nobel": "United_Kingdom", "booker": "Ireland"}
    assert _union_with_one_unlinked_church(clean_db, database, titles, places) == LAUREATES


def test_two_letters_of_one_alphabetical_list_make_no_union(
    clean_db: neo4j.Driver, database: str | None
) -> None:
    """Whole-corpus read (session 49): Audioslave "listed in both" sections "A" and "C" of
    the post-grunge bands was a slip of the article, not an answer. Two parts of one
    alphabetical list never form a Union family (under their own titles the same two tables
    do: `test_an_unlinked_name_is_no_shared_answer_across_articles`)."""
    parts = {"nobel": "A", "booker": "C"}
    tables = [
        replace(t, title="List of laureates", section_title=parts[t.table_id])
        if t.table_id in parts
        else t
        for t in TABLES
    ]
    write_source_tables(clean_db, tables, database)
    _all_stages(clean_db, database)
    assert _tasks(clean_db, "union") == []


def test_clues_are_names_and_pivots_are_no_lengths() -> None:
    """Whole-corpus audit (session 40): a description is no clue, a drought's length no
    pivot."""
    from seekgraph.synth.leaper.descriptive import is_descriptive
    from seekgraph.synth.leaper.tasks_reverse import _names_a_value

    assert _names_a_value({"kind": "value", "name": "Bunyodkor Stadium"})
    assert _names_a_value({"kind": "entity", "name": "Prince Leopold, Duke of Albany"})
    assert not _names_a_value(
        {"kind": "value", "name": "Some Melbourne Victory matches, some Socceroos matches"}
    )
    assert not is_descriptive("length of drought", [("text", "7 seasons"), ("text", "3 seasons")])
