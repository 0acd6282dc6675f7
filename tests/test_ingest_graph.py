"""Ingest into the real server: default data counts, idempotence, bad inputs, the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import neo4j
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from seekgraph.cli import main
from seekgraph.graphdb.settings import ConnectionSettings
from seekgraph.synth.ingest import pages
from seekgraph.synth.ingest.inspect import entity_facts, list_tables, shared_entities
from seekgraph.synth.ingest.pages import LinkSpool
from seekgraph.synth.ingest.readers import read_pages, read_tables
from seekgraph.synth.ingest.tables import graph_counts, ingest_tables
from seekgraph.synth.stages import INGEST
from tests.conftest import BAD_DATA as BAD
from tests.conftest import DEFAULT_DATA, cli_login, run_stage


def _content(counts: dict[str, int]) -> dict[str, int]:
    return {k: v for k, v in counts.items() if k not in ("node:StageRun", "node:Rejection")}


def test_default_data_ingest_counts_and_idempotence(
    clean_db: neo4j.Driver, database: str | None
) -> None:
    report = run_stage(INGEST, clean_db, database)
    assert (report.notes["tables kept"], report.rejected) == (11, 0)  # 9 JSONL + CSV + HTML
    assert report.notes["pages kept"] == 259
    assert report.kept == 11 + 259
    first = graph_counts(clean_db, database)
    assert first["node:Table"] == 11
    assert first["node:Row"] == report.notes["rows written"] == 194
    assert first["rel:ANCHOR"] == 194
    assert first["node:Page"] == 259 + 11  # passages + one rendered page per kept table
    assert first["rel:RENDERS"] == 11
    assert first["rel:FACT"] > 500

    facts = entity_facts(clean_db, "/wiki/Kazuo_Ishiguro", database)
    by_table = {(f["table_id"], f["relation"]): f["target"] for f in facts}
    # One entity, reached from three tables (Nobel, Booker, birth and citizenship).
    assert by_table[("Booker_Prize_1", "year")] == "year:1989"
    assert by_table[("List_of_Nobel_laureates_in_Literature_1", "year")] == "year:2017"
    assert (
        by_table[("List_of_Nobel_laureates_in_Literature_1", "country")] == "/wiki/United_Kingdom"
    )
    assert by_table[("List_of_literary_prize_winners_1", "place_of_birth")] == "/wiki/Nagasaki"
    # An unlinked CSV key cell is an explicitly unlinked entity, never a made-up page id.
    csv_facts = entity_facts(clean_db, "unlinked:helen dunmore", database)
    assert {(f["relation"], f["target"]) for f in csv_facts} >= {
        ("year", "year:1996"),
        ("country", "text:united kingdom"),
    }

    again = run_stage(INGEST, clean_db, database)
    assert (again.kept, again.skipped) == (0, 11 + 259)
    assert _content(graph_counts(clean_db, database)) == _content(first)


@given(
    batches=st.lists(st.lists(st.integers(), max_size=7), max_size=8),
    size=st.integers(min_value=1, max_value=9),
)
def test_the_link_spool_gives_back_every_row_in_order(batches: list[list[int]], size: int) -> None:
    rows = [[{"page_id": str(n), "links": [{"id": str(n)}]} for n in batch] for batch in batches]
    with LinkSpool() as spool:
        for batch in rows:
            spool.add(batch)
        slices = list(spool.slices(size))
    flat = [row for batch in rows for row in batch]
    assert [row for part in slices for row in part] == flat
    assert all(len(part) == size for part in slices[:-1]) and spool.rows == len(flat)
    assert all(0 < len(part) <= size for part in slices)


def test_links_written_a_slice_at_a_time_make_the_same_graph(
    clean_db: neo4j.Driver, database: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Links wait on disk and are written a slice at a time; pages and their links spread over
    many batches and slices (links to pages of later batches among them) give the graph that
    one batch gives."""
    run_stage(INGEST, clean_db, database)
    whole = _content(graph_counts(clean_db, database))
    assert whole["rel:LINKS_TO"] > 0
    clean_db.execute_query("MATCH (n) DETACH DELETE n", database_=database)
    monkeypatch.setattr(pages, "LINK_SLICE", 7)
    run_stage(INGEST, clean_db, database, page_batch=5)
    assert _content(graph_counts(clean_db, database)) == whole


def test_bad_inputs_are_rejected_with_reasons_and_the_rest_loads(
    clean_db: neo4j.Driver, database: str | None
) -> None:
    from seekgraph.synth.ingest.config import IngestConfig
    from seekgraph.synth.ingest.records import RawTable, Unreadable

    items: list[RawTable | Unreadable] = []
    for path in [DEFAULT_DATA / "tables.jsonl", *sorted(BAD.glob("*.jsonl")), BAD / "latin1.csv"]:
        items.extend(read_tables(path))
    report = ingest_tables(clean_db, items, IngestConfig(), database=database)
    # unreadable records are named by file, line and a digest of their bytes
    reasons = {r.record_id.split("@")[0]: r.reason for r in report.rejections}
    assert reasons == {
        "Bad_ragged_1": "ragged",
        "Bad_empty_1": "empty",
        "Bad_huge_cell_1": "cell_too_large",
        "broken.jsonl:2": "broken_json",
        "csv:latin1.csv": "encoding",
        # The readable lines of broken.jsonl load, and are then too small to keep.
        "Bad_broken_1": "too_few_rows",
        "Bad_broken_3": "too_few_rows",
    }
    assert report.kept == 9
    rejected = list_tables(clean_db, database, status="rejected")
    assert {t["table_id"]: t["reason"] for t in rejected} == {
        k: v for k, v in reasons.items() if k.startswith("Bad_")
    }


def _cli(conn: ConnectionSettings, *args: str) -> str:
    result = CliRunner().invoke(main, [*cli_login(conn), *args])
    assert result.exit_code == 0, result.output + repr(result.exception)
    return result.output


def test_cli_ingest_is_idempotent(
    clean_db: neo4j.Driver, database: str | None, neo4j_connection: ConnectionSettings
) -> None:
    files = [DEFAULT_DATA / "tables.jsonl", BAD / "ragged.jsonl", DEFAULT_DATA / "pages.jsonl"]
    args = ["ingest", *(x for f in files for x in ("--files", str(f)))]
    out = _cli(neo4j_connection, *args)
    assert "ingest: kept 268, rejected 1" in out and "ragged" in out
    assert "tables kept: 9" in out and "pages kept: 259" in out
    first = _content(graph_counts(clean_db, database))
    out = _cli(neo4j_connection, *args)
    assert "kept 0, rejected 0, skipped (already done) 269" in out
    assert _content(graph_counts(clean_db, database)) == first


def test_changed_table_is_rewritten_not_duplicated(
    clean_db: neo4j.Driver, database: str | None, tmp_path: Path
) -> None:
    lines = (DEFAULT_DATA / "tables.jsonl").read_text(encoding="utf-8").splitlines()
    path = tmp_path / "t.jsonl"
    path.write_text(lines[0] + "\n", encoding="utf-8")
    ingest_tables(clean_db, read_tables(path), database=database)
    before = graph_counts(clean_db, database)
    path.write_text(lines[0].replace('"Genre(s)"', '"Genres"') + "\n", encoding="utf-8")
    report = ingest_tables(clean_db, read_tables(path), database=database)
    assert report.kept == 1
    after = graph_counts(clean_db, database)
    assert after["node:Row"] == before["node:Row"]
    assert after["rel:FACT"] == before["rel:FACT"]
    assert after["rel:HAS_CELL"] == before["rel:HAS_CELL"]


def test_a_table_cleaned_by_newer_code_is_cleaned_again(
    clean_db: neo4j.Driver,
    database: str | None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Session 54: the raw cells hash alike whatever cleans them, so a graph built before a
    cleaning fix ("Ca n't" -> "Can't") must still take the fix: the cleaning code is in the
    fingerprint, and a table of unchanged input is cleaned again, as no new version."""
    from seekgraph.synth.ingest import config as ingest_config

    lines = (DEFAULT_DATA / "tables.jsonl").read_text(encoding="utf-8").splitlines()
    path = tmp_path / "t.jsonl"
    path.write_text(lines[0] + "\n", encoding="utf-8")
    ingest_tables(clean_db, read_tables(path), database=database)
    before = graph_counts(clean_db, database)
    assert ingest_tables(clean_db, read_tables(path), database=database).skipped == 1
    monkeypatch.setattr(ingest_config, "cleaning_code", lambda: "newer cleaning code")
    report = ingest_tables(clean_db, read_tables(path), database=database)
    assert (report.kept, report.skipped) == (1, 0)
    assert _content(graph_counts(clean_db, database)) == _content(before)


@pytest.mark.shared_data
def test_shared_slice_tables_and_passages(
    clean_db: neo4j.Driver, database: str | None, shared_data: Path, tmp_path: Path
) -> None:
    import gzip
    import itertools
    import json

    links: set[str] = set()
    tables = tmp_path / "tables.jsonl"
    with gzip.open(shared_data / "ottqa" / "tables.train.jsonl.gz", "rt") as src:
        head = list(itertools.islice(src, 100))
    tables.write_text("".join(head), encoding="utf-8")
    for line in head:
        for row in json.loads(line)["data"]:
            for cell in row:
                links.update(cell[1])
    passages = tmp_path / "passages.jsonl"
    with (
        gzip.open(shared_data / "ottqa" / "passages.train.jsonl.gz", "rt") as src,
        open(passages, "w", encoding="utf-8") as dst,
    ):
        for line in src:
            if json.loads(line)["id"] in links:
                dst.write(line)
    from seekgraph.synth.ingest.pages import ingest_pages

    report = ingest_tables(clean_db, read_tables(tables), database=database)
    # every table is kept or rejected; rows rejected inside kept tables carry `table#rN` ids
    row_rejections = [r for r in report.rejections if "#r" in r.record_id]
    assert report.kept + report.rejected - len(row_rejections) == 100
    assert all(r.reason in ("blank_key", "summary_row") for r in row_rejections)
    assert report.kept >= 90
    pages = ingest_pages(clean_db, read_pages(passages), database=database)
    assert pages.kept == len(links)
    counts = graph_counts(clean_db, database)
    # Every passage is ABOUT the entity its table cells link to: no second entity per page.
    assert counts["rel:ABOUT"] == len(links)
    assert shared_entities(clean_db, database) > 20


def test_a_data_folder_is_read_whatever_its_file_names(
    clean_db: neo4j.Driver, database: str | None, tmp_path: Path
) -> None:
    """Files in a data folder are found by suffix and content (tables or pages), not by a fixed
    name; a folder with none of them is an error, not "kept 0"."""
    import shutil

    from seekgraph.graphdb.errors import StageError

    folder = tmp_path / "corpus"
    (folder / "part1").mkdir(parents=True)
    shutil.copy(DEFAULT_DATA / "tables.jsonl", folder / "part1" / "wiki_tables.jsonl")
    shutil.copy(DEFAULT_DATA / "pages.jsonl", folder / "passages_2020.jsonl")
    (folder / "README.md").write_text("not data\n")
    report = run_stage(INGEST, clean_db, database, data=folder)
    assert report.notes["files"] == "part1/wiki_tables.jsonl, passages_2020.jsonl"
    assert report.notes["ignored files"] == 1  # README.md, listed by the stage
    assert report.notes["tables kept"] > 0 and report.notes["pages kept"] > 0
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("nothing\n")
    with pytest.raises(StageError, match="holds no table or page files"):
        run_stage(INGEST, clean_db, database, data=empty)


def _rejections(driver: neo4j.Driver) -> dict[str, str]:
    rows = driver.execute_query(
        "MATCH (r:Rejection {stage: 'ingest'}) RETURN r.record_id AS id, r.reason AS reason"
    ).records
    return {r["id"]: r["reason"] for r in rows}


def test_two_folders_with_the_same_file_names_both_stay_intact(
    clean_db: neo4j.Driver, database: str | None, tmp_path: Path
) -> None:
    """Ids come from the source and the path, never from a file's stem: a header-only
    `prizes.csv` from another folder (another source) is a table of its own, a broken line of another
    `tables.jsonl` a rejection of its own, and a ragged copy of a kept table from another file
    does not replace it."""
    first, second = tmp_path / "first", tmp_path / "second"
    (first / "extra").mkdir(parents=True)
    (second / "extra").mkdir(parents=True)
    (first / "extra" / "prizes.csv").write_bytes((DEFAULT_DATA / "extra/prizes.csv").read_bytes())
    (second / "extra" / "prizes.csv").write_text("Year,Author,Title,Nationality\n")
    table = json.loads((DEFAULT_DATA / "tables.jsonl").read_text().splitlines()[0])
    ragged = {**table, "data": [row[:-1] for row in table["data"]]}  # rows short of a cell
    (first / "tables.jsonl").write_text(f"{json.dumps(table)}\n{{not json: first\n")
    (second / "tables.jsonl").write_text(f"{{not json: second\n{json.dumps(ragged)}\n")

    run_stage(INGEST, clean_db, database, data=first)
    before = {t["table_id"]: t for t in list_tables(clean_db, database)}
    run_stage(INGEST, clean_db, database, data=second)
    after = {t["table_id"]: t for t in list_tables(clean_db, database)}

    csv_ids = sorted(t for t in after if t.startswith("csv:"))
    assert csv_ids == ["csv:first/extra/prizes.csv", "csv:second/extra/prizes.csv"]
    kept_csv = next(t for t in csv_ids if t in before)
    assert after[kept_csv]["status"] == "kept" and after[kept_csv]["n_rows"] > 5
    kept = table["table_id"]
    assert before[kept]["status"] == after[kept]["status"] == "kept"
    assert before[kept]["n_rows"] == after[kept]["n_rows"]
    clash = [r for r, reason in _rejections(clean_db).items() if reason == "id_clash"]
    assert len(clash) == 1 and clash[0].startswith("tables.jsonl:2@")
    broken = sorted(r for r, reason in _rejections(clean_db).items() if reason == "broken_json")
    assert len(broken) == 2 and {r.split("@")[0] for r in broken} == {
        "tables.jsonl:1",
        "tables.jsonl:2",
    }
    rows = clean_db.execute_query(
        "MATCH (:Table {table_id: $id})-[:HAS_ROW]->(r:Row) RETURN count(r) AS n", id=kept_csv
    ).records[0]["n"]
    assert rows == before[kept_csv]["n_rows"]


def test_a_rejection_goes_when_its_record_is_kept(
    clean_db: neo4j.Driver, database: str | None, tmp_path: Path
) -> None:
    """Fixing a record and ingesting again keeps it and removes its old rejection, so
    `db rejects` and the graph agree (also for a broken line that now reads)."""
    folder = tmp_path / "data"
    folder.mkdir()
    ragged = (BAD / "ragged.jsonl").read_text().strip()
    (folder / "tables.jsonl").write_text(f"{ragged}\n{{not json\n")
    run_stage(INGEST, clean_db, database, data=folder)
    assert sorted(_rejections(clean_db).values()) == ["broken_json", "ragged"]

    first, second = (DEFAULT_DATA / "tables.jsonl").read_text().splitlines()[:2]
    repaired = {**json.loads(first), "table_id": "Bad_ragged_1"}
    (folder / "tables.jsonl").write_text(f"{json.dumps(repaired)}\n{second}\n")
    report = run_stage(INGEST, clean_db, database, data=folder)
    assert report.notes["tables kept"] == 2
    assert _rejections(clean_db) == {}
