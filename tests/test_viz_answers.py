"""The answers view (`seekgraph viz answers TASK`): every gold record of a real task is shown
with the source rows that prove it, the asked attribute cells marked, and nothing else."""

from __future__ import annotations

from pathlib import Path

import neo4j
from click.testing import CliRunner

from seekgraph.cli import main
from seekgraph.graphdb.settings import ConnectionSettings
from seekgraph.viz.answers import ProofRow, answers_text, load_answers
from tests.conftest import cli_login, run_pipeline

STAGES = ("ingest", "relations", "leaper-trees", "leaper-basic", "leaper-union", "shaper-seeds")


def _tasks(driver: neo4j.Driver, database: str | None) -> dict[str, str]:
    rows = driver.execute_query(
        "MATCH (t:Task {status: 'kept'}) RETURN t.variant AS v, min(t.task_id) AS id",
        database_=database,
    ).records
    return {r["v"]: r["id"] for r in rows}


def _row_links(driver: neo4j.Driver, database: str | None, proof: ProofRow, entity: str) -> bool:
    """Whether the proof's row has a cell linking `entity`."""
    return bool(
        driver.execute_query(
            "MATCH (:Row {row_id: $row})-[:HAS_CELL]->(:Entity {entity_id: $entity}) "
            "RETURN count(*) > 0 AS found",
            row=f"{proof.table_id}#r{proof.row}",
            entity=entity,
            database_=database,
        ).records[0]["found"]
    )


def test_answers_view_proves_every_record_from_its_rows(
    clean_db: neo4j.Driver,
    database: str | None,
    neo4j_connection: ConnectionSettings,
    tmp_path: Path,
) -> None:
    run_pipeline(STAGES, clean_db, database, out_dir=tmp_path)
    tasks = _tasks(clean_db, database)
    assert {"basic", "union", "kp"} <= set(tasks)
    for variant in ("basic", "union", "kp"):
        view = load_answers(clean_db, database, tasks[variant])
        assert view.records and view.unproven == [], (variant, answers_text(view))
        for record in view.records:
            for proof in record.rows:
                texts = [text for _, text, _ in proof.cells]
                # the row names the answer (by its name, or by a cell that links its page:
                # "Hebrew" for Hebrew language), and every asked value it holds is marked
                named = any(record.name.casefold() in t.casefold() for t in texts)
                assert named or _row_links(clean_db, database, proof, record.entity_id), (
                    record,
                    proof,
                )
                marked = {t.casefold() for _, t, asked in proof.cells if asked}
                values = {v.casefold() for vs in record.attributes.values() for v in vs}
                assert marked <= values
        if variant == "union":
            # a union answer is proven in every table the question names
            assert all(len({p.table_id for p in r.rows}) >= 2 for r in view.records)
    code = CliRunner().invoke(
        main,
        [*cli_login(neo4j_connection), "viz", "answers", tasks["basic"], "--out", str(tmp_path)],
    )
    assert code.exit_code == 0, code.output
    assert code.output.splitlines()[1].startswith("Q: ")
    page = next(tmp_path.glob("answers-*.html")).read_text()
    assert "class='asked'" in page and "no source row" not in page
