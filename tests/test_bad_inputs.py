"""Bad inputs beside good ones: every bad record is rejected with its reason and kept as a
Rejection naming it, the good records all load, odd text arrives as text, a re-run changes
nothing, and a folder that yields nothing fails under --strict (see scaffolding/bad_inputs)."""

from __future__ import annotations

from pathlib import Path

import neo4j
from click.testing import CliRunner

from seekgraph.cli import main
from seekgraph.graphdb.settings import ConnectionSettings
from tests.conftest import cli_login
from tests.scaffolding.bad_inputs import CASES, KEPT, write_bad_folder


def _ingest(conn: ConnectionSettings, folder: Path, *extra: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*cli_login(conn), "ingest", "--data", str(folder), *extra])
    return result.exit_code, result.output


def _rejections(driver: neo4j.Driver, database: str | None) -> dict[str, str]:
    rows = driver.execute_query(
        "MATCH (r:Rejection {stage: 'ingest'}) RETURN r.record_id AS id, r.reason AS reason",
        database_=database,
    ).records
    return {r["id"]: r["reason"] for r in rows}


def test_every_bad_input_is_rejected_with_its_reason_and_the_good_ones_load(
    clean_db: neo4j.Driver,
    database: str | None,
    neo4j_connection: ConnectionSettings,
    tmp_path: Path,
) -> None:
    folder = tmp_path / "data"
    write_bad_folder(folder)
    code, output = _ingest(neo4j_connection, folder)
    assert code == 0, output
    assert "ignoring 1 files that are not data: notes.txt" in output
    rejected = _rejections(clean_db, database)
    table = [f"{'case':<40} {'record':<34} reason"]
    for case in CASES:
        found = {i: r for i, r in rejected.items() if i.split("@")[0] == case.record}
        assert found, f"{case.name}: no rejection of {case.record} in {sorted(rejected)}"
        assert set(found.values()) == {case.reason}, (case.name, found)
        table.append(f"{case.name:<40} {case.record:<34} {case.reason}")
    print("\n".join(table))
    assert len(CASES) >= 20
    # the good records: the default data, the odd-but-good tables and the one good page
    kept = {
        r["id"]
        for r in clean_db.execute_query(
            "MATCH (t:Table {status: 'kept'}) RETURN t.table_id AS id", database_=database
        ).records
    }
    assert len(kept) == 11 + len(KEPT) and set(KEPT) <= kept
    pages = clean_db.execute_query(
        "MATCH (p:Page) WHERE p.source <> 'table' RETURN count(p) AS n", database_=database
    ).records[0]["n"]
    assert pages == 259 + 1
    # odd text arrives as text: the Cypher-like header is a header, control characters are gone
    headers = clean_db.execute_query(
        "MATCH (:Table {table_id: 'Good_injection'})-[:HAS_COLUMN]->(c:Column) "
        "RETURN collect(c.header) AS h",
        database_=database,
    ).records[0]["h"]
    assert KEPT["Good_injection"] in headers
    dirty = clean_db.execute_query(
        "MATCH (n) UNWIND keys(n) AS k WITH n, k, n[k] AS v WHERE valueType(v) STARTS WITH "
        "'STRING' AND v =~ '(?s).*[\\\\x00-\\\\x08\\\\x0b\\\\x0c\\\\x0e-\\\\x1f].*' "
        "RETURN count(*) AS n",
        database_=database,
    ).records[0]["n"]
    assert dirty == 0
    # the same input again: nothing new, the same rejections
    code, output = _ingest(neo4j_connection, folder)
    assert code == 0 and "ingest: kept 0," in output, output
    assert _rejections(clean_db, database) == rejected


def test_an_input_that_yields_nothing_says_so_and_fails_under_strict(
    clean_db: neo4j.Driver,
    database: str | None,
    neo4j_connection: ConnectionSettings,
    tmp_path: Path,
) -> None:
    folder = tmp_path / "nothing"
    folder.mkdir()
    (folder / "tables.jsonl").write_text("")
    (folder / "article.html").write_text("<html><body><p>prose only</p></body></html>")
    code, output = _ingest(neo4j_connection, folder)
    assert code == 0 and "kept 0, rejected 2" in output and "no_records" in output, output
    code, output = _ingest(neo4j_connection, folder, "--strict")
    assert code != 0, output
    last = output.strip().splitlines()[-1]
    assert last.startswith("Error: ingest kept nothing"), output
    listed = CliRunner().invoke(
        main, [*cli_login(neo4j_connection), "db", "rejects", "--show", "--stage", "ingest"]
    )
    assert "tables.jsonl\tno_records" in listed.output
    assert "article.html\tno_records" in listed.output
