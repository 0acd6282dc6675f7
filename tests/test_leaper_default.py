"""The default data set through ingest and the WebLeaper stages and CLI: all three
variants come out, every kept task proven by the graph, and a re-run adds nothing."""

from __future__ import annotations

import json
from pathlib import Path

import neo4j
import pytest
from click.testing import CliRunner

from seekgraph.cli import main
from seekgraph.graphdb import cypher
from seekgraph.graphdb.settings import ConnectionSettings
from tests.conftest import cli_login, run_pipeline

LEAPER = ("leaper-trees", "leaper-basic", "leaper-union", "leaper-reverse")


@pytest.mark.slow
def test_pipeline_default_data_yields_all_variants(
    clean_db: neo4j.Driver, database: str | None, tmp_path: Path
) -> None:
    reports = run_pipeline(("ingest", "relations", *LEAPER), clean_db, database, out_dir=tmp_path)
    kept = {r.stage: r.kept for r in reports}
    for r in reports:
        print("\n".join(r.summary_lines()))
    assert kept["leaper-trees"] >= 8
    for stage in ("leaper-basic", "leaper-union", "leaper-reverse"):
        assert kept[stage] >= 1, (stage, [r.summary_lines() for r in reports])
    lines = (tmp_path / "leaper_tasks.jsonl").read_text().splitlines()
    variants = {json.loads(line)["variant"] for line in lines}
    assert variants == {"basic", "union", "reverse-union"}
    # a second run of the leaper stages adds nothing
    again = run_pipeline(LEAPER, clean_db, database, out_dir=tmp_path)
    assert [r.kept for r in again] == [0, 0, 0, 0]


def test_cli_synth_and_export(
    clean_db: neo4j.Driver, neo4j_connection: ConnectionSettings, tmp_path: Path
) -> None:
    from tests.leaper_data import TABLES
    from tests.scaffolding.source_tables import write_source_tables

    write_source_tables(clean_db, TABLES, neo4j_connection.database)
    conn = [
        *cli_login(neo4j_connection),
    ]
    runner = CliRunner()
    settings = ["--similarity", "tokens", "--threshold", "0", "--min-relations", "2"]
    output = ""
    for stage in LEAPER:
        result = runner.invoke(main, [*conn, stage, *settings, "--out", str(tmp_path)])
        assert result.exit_code == 0, result.output
        output += result.output
    assert "leaper-union: kept 1" in output
    assert "rejected      1  no_pivot" in output  # UK pivot: 2 others < min_reverse_answers
    out = tmp_path / "tasks.jsonl"
    result = runner.invoke(
        main, [*conn, "export", "tasks", "--variant", "union", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    (task,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert task["variant"] == "union" and len(task["answers"]) == 3
    bad = runner.invoke(main, [*conn, "leaper-union", "--similarity", "nope"])
    assert bad.exit_code != 0 and "nope" in bad.output
    assert cypher.read(clean_db, "leaper/find_leaper_tasks", variants=["basic"])
