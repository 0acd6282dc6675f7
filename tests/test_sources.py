"""Sources and versions on a real server: an edited cell is a new version whose task follows
it (the old version kept, what was built on it stale until rebuilt), a file gone from its
source retires its table and tasks only on request, a re-run changes nothing, and a second
folder never takes a source name another folder has."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import neo4j
import pytest

from seekgraph.graphdb.errors import StageError
from seekgraph.synth.ingest.sources import VersionChange, source_of
from seekgraph.synth.stages import INGEST
from tests.conftest import run_pipeline, run_stage
from tests.scaffolding.fingerprint import difference, fingerprint
from tests.scaffolding.small_default import write_small_default

LEAPER = ("ingest", "relations", "leaper-trees", "leaper-basic", "leaper-union", "leaper-reverse")
CSV_ID = "csv:data/extra/prizes.csv"


def _one(driver: neo4j.Driver, database: str | None, query: str, **params: Any) -> Any:
    records, _, _ = driver.execute_query(query, params, database_=database)
    return records[0][0] if records else None


def _basic_task(driver: neo4j.Driver, database: str | None) -> dict[str, Any]:
    records, _, _ = driver.execute_query(
        "MATCH (t:Task {variant: 'basic'})-[:BUILT_FROM]->(:Tree {tree_id: $tree}) "
        "RETURN t.task_id AS id, t.status AS status, t.answer_json AS answer, "
        "t.stale_reason AS stale",
        {"tree": "tree:" + CSV_ID},
        database_=database,
    )
    (row,) = records
    return dict(row)


def _add_rollout(driver: neo4j.Driver, database: str | None, task_id: str) -> None:
    """A finished, scored rollout of the task (what the rollout and score stages write)."""
    driver.execute_query(
        "MATCH (t:Task {task_id: $id}) "
        "CREATE (r:Rollout {rollout_id: $id + '/teacher/m/0', task_id: $id, status: 'done', "
        "isr: 0.5, ise: 0.4, f1: 0.6, kept: true})-[:FOR_TASK]->(t)",
        {"id": task_id},
        database_=database,
    )


def _build(
    driver: neo4j.Driver,
    database: str | None,
    folder: Path,
    tmp_path: Path,
    stages: tuple[str, ...] = LEAPER,
) -> None:
    run_pipeline(
        stages, driver, database, out_dir=tmp_path / "out", flags={"ingest": {"data": folder}}
    )


@pytest.fixture
def built(clean_db: neo4j.Driver, database: str | None, tmp_path: Path) -> Path:
    """The small default slice (four prize tables, the CSV, the HTML table) in a folder named
    `data`, built through the WebLeaper stages, with a rollout of the CSV table's Basic task."""
    folder = write_small_default(tmp_path / "data")
    _build(clean_db, database, folder, tmp_path)
    _add_rollout(clean_db, database, _basic_task(clean_db, database)["id"])
    return folder


def test_an_edited_cell_is_a_new_version_and_the_task_follows_it(
    built: Path, clean_db: neo4j.Driver, database: str | None, tmp_path: Path
) -> None:
    before = _basic_task(clean_db, database)
    assert before["status"] == "kept" and "Canada" in before["answer"]
    csv = built / "extra" / "prizes.csv"
    csv.write_text(csv.read_text().replace("Fugitive Pieces,Canada", "Fugitive Pieces,Ireland"))

    report = run_stage(INGEST, clean_db, database, data=built)
    assert report.notes["tables kept"] == 1  # the CSV table, read again; the others skipped
    # between the stages: the old version kept, what was built on it stale with the reason
    stale = _basic_task(clean_db, database)
    assert stale["status"] == "stale" and "changed (version" in stale["stale"]
    assert _one(
        clean_db, database, "MATCH (r:Rollout) RETURN [r.status, r.isr, r.stale_reason IS NULL]"
    ) == ["stale", None, False]
    version = _one(
        clean_db,
        database,
        "MATCH (:Table {table_id: $id})-[:HAD_VERSION]->(v:TableVersion) "
        "RETURN {n: count(v), text: head(collect(v.text))}",
        id=CSV_ID,
    )
    assert version["n"] == 1 and "Fugitive Pieces | Canada" in version["text"]
    # only the new version is served: one kept table under the id, its page says Ireland
    assert _one(
        clean_db,
        database,
        "MATCH (t:Table) WHERE t.table_id STARTS WITH 'csv:' "
        "RETURN collect([t.table_id, t.status])",
    ) == [[CSV_ID, "kept"]]
    page = _one(
        clean_db,
        database,
        "MATCH (p:Page)-[:RENDERS]->(:Table {table_id: $id}) RETURN p.text",
        id=CSV_ID,
    )
    assert "Ireland" in page and "Canada" not in page

    _build(clean_db, database, built, tmp_path, LEAPER[1:])
    after = _basic_task(clean_db, database)
    assert after["id"] == before["id"] and after["status"] == "kept" and after["stale"] is None
    records = {r["name"]: r for r in json.loads(after["answer"])}
    michaels = json.dumps(records["Anne Michaels"])
    assert "Ireland" in michaels and "Canada" not in michaels
    assert _one(clean_db, database, "MATCH (t:Task {status: 'stale'}) RETURN count(t)") == 0
    assert (
        _one(clean_db, database, "MATCH (t:Tree) WHERE t.stale_reason IS NOT NULL RETURN count(t)")
        == 0
    )

    # a re-run of everything changes nothing
    first = fingerprint(clean_db, database)
    _build(clean_db, database, built, tmp_path)
    assert difference(first, fingerprint(clean_db, database)) == ""


def test_a_file_gone_from_its_source_retires_its_table_and_tasks_on_request(
    built: Path, clean_db: neo4j.Driver, database: str | None, tmp_path: Path
) -> None:
    saved = tmp_path / "prizes.csv"
    shutil.move(built / "extra" / "prizes.csv", saved)
    first = fingerprint(clean_db, database)
    report = run_stage(INGEST, clean_db, database, data=built)
    assert report.notes["tables missing from the source (kept; --retire-missing retires them)"] == 1
    assert difference(first, fingerprint(clean_db, database)) == ""  # nothing retired unasked

    report = run_stage(INGEST, clean_db, database, data=built, retire_missing=True)
    assert report.notes["tables retired (missing from the source)"] == 1
    table = _one(
        clean_db,
        database,
        "MATCH (t:Table {table_id: $id}) RETURN t {.status, .reason, .detail}",
        id=CSV_ID,
    )
    assert table["status"] == "retired" and table["reason"] == "missing_from_source"
    assert "extra/prizes.csv is gone from" in table["detail"]
    # no longer served: no page, no rows; what was built on it is stale and stays so
    assert (
        _one(
            clean_db,
            database,
            "MATCH (:Table {table_id: $id})<-[:RENDERS|HAS_ROW]-(x) RETURN count(x)",
            id=CSV_ID,
        )
        == 0
    )
    _build(clean_db, database, built, tmp_path, LEAPER[1:])
    task = _basic_task(clean_db, database)
    assert task["status"] == "stale" and "no longer in source 'data'" in task["stale"]
    assert _one(clean_db, database, "MATCH (r:Rollout) RETURN r.status") == "stale"
    retired = fingerprint(clean_db, database)
    run_stage(INGEST, clean_db, database, data=built, retire_missing=True)
    assert difference(retired, fingerprint(clean_db, database)) == ""

    # the file back: the table is served again and its task rebuilt
    shutil.move(saved, built / "extra" / "prizes.csv")
    _build(clean_db, database, built, tmp_path)
    assert _basic_task(clean_db, database)["status"] == "kept"


def test_a_second_folder_never_takes_a_source_name_another_folder_has(
    clean_db: neo4j.Driver, database: str | None, tmp_path: Path
) -> None:
    first, second = tmp_path / "a" / "prizes", tmp_path / "b" / "prizes"
    for folder in (first, second):
        folder.mkdir(parents=True)
        shutil.copy(write_small_default(tmp_path / "small") / "extra" / "prizes.csv", folder)
    run_stage(INGEST, clean_db, database, data=first)
    with pytest.raises(StageError, match=f"source 'prizes' is the folder {first}"):
        run_stage(INGEST, clean_db, database, data=second)
    run_stage(INGEST, clean_db, database, data=second, source="prizes-b")
    ids = _one(
        clean_db, database, "MATCH (t:Table {status: 'kept'}) RETURN collect(t.table_id) ORDER BY 1"
    )
    assert sorted(ids) == ["csv:prizes-b/prizes.csv", "csv:prizes/prizes.csv"]
    # a name given says the folder moved: the same tables, read from the new place
    run_stage(INGEST, clean_db, database, data=second, source="prizes")
    assert _one(clean_db, database, "MATCH (s:Source {name: 'prizes'}) RETURN s.location") == (
        str(second.resolve())
    )


def test_a_version_change_says_what_changed() -> None:
    assert VersionChange("t", "a", "b").reason == "table t changed (version a -> b)"
    assert "other cleaning settings" in VersionChange("t", "a", "a").reason
    assert "back in its source" in VersionChange("t", "a", "b", was_retired=True).reason
    assert source_of(Path("/x/corpus")).name == "corpus"
    assert source_of(Path("/x/corpus"), "wiki").given
    # the packaged data's folder moves with each install: never taken for another folder
    packaged = source_of(Path("/venv/seekgraph/synth/default_data"), default=True)
    assert (packaged.name, packaged.given) == ("default", True)
    with pytest.raises(StageError, match="without '/'"):
        source_of(Path("/x"), "a/b")
