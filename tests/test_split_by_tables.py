"""The held-out split is a function of source tables (issue 31, item 4), on a real server: after
the quality gate no table is a source of a held-out and of a train task; a Union family's tables
go to one side together (with their Union, Reverse-Union and Basic tasks); a KP task over a
held-out and a train table is rejected ``split_leak`` (kept as a Rejection with its reason)."""

from __future__ import annotations

from pathlib import Path

import neo4j
import pytest

from seekgraph.graphdb import cypher
from seekgraph.synth.leaper.common import LeaperConfig
from seekgraph.synth.leaper.tasks_basic import build_basic_tasks
from seekgraph.synth.leaper.tasks_union import build_union_tasks
from seekgraph.synth.leaper.trees import build_trees
from seekgraph.synth.quality import QualityConfig, run_quality
from seekgraph.synth.split import source_heldout, source_units, split_of_sources
from tests.conftest import run_pipeline
from tests.leaper_data import TABLES
from tests.scaffolding.source_tables import write_source_tables

CONFIG = LeaperConfig(similarity="tokens", threshold=0.0)
LEAPER = ("leaper-trees", "leaper-basic", "leaper-union", "leaper-reverse")

# Kept tasks of both sides that reach one table through their trees (the property the split
# promises), written apart from the gate's own query so the test does not grade itself.
CROSSING = """
MATCH (h:Task {status: 'kept', split: 'heldout'})-[:BUILT_FROM|HAS_MEMBER*1..4]->(:Tree)
      -[:FROM_TABLE]->(tab:Table)
MATCH (t:Task {status: 'kept', split: 'train'})-[:BUILT_FROM|HAS_MEMBER*1..4]->(:Tree)
      -[:FROM_TABLE]->(tab)
RETURN count(DISTINCT tab) AS n
"""


def _percent_splitting(a: str, b: str) -> int:
    """A held-out share that puts table `a` on one side and `b` on the other."""
    return next(p for p in range(1, 100) if source_heldout(a, p) != source_heldout(b, p))


def _tasks(driver: neo4j.Driver) -> dict[str, dict[str, object]]:
    records, _, _ = driver.execute_query(
        "MATCH (t:Task) OPTIONAL MATCH (t)-[:BUILT_FROM|HAS_MEMBER*1..4]->(:Tree)"
        "-[:FROM_TABLE]->(tab:Table) "
        "RETURN t.task_id AS id, t.variant AS variant, t.status AS status, t.reason AS reason, "
        "t.split AS split, collect(DISTINCT tab.table_id) AS tables"
    )
    return {r["id"]: r.data() for r in records}


def _add_kp_task(driver: neo4j.Driver, task_id: str, tables: list[str]) -> None:
    """A kept KP task whose triples read `tables` (``relation@table_id``), as shaper writes."""
    driver.execute_query(
        "CREATE (t:Task {task_id: $id, kind: 'kp', variant: 'kp', status: 'kept', split: 'train'}) "
        "WITH t UNWIND range(0, size($tables) - 1) AS i "
        "CREATE (t)-[:HAS_TRIPLE]->(:Triple {triple_id: $id + '#' + i, "
        "relation: 'won@' + $tables[i]})",
        id=task_id,
        tables=tables,
    )


def test_a_union_family_goes_to_one_side_and_a_kp_chain_across_is_a_leak(
    clean_db: neo4j.Driver, database: str | None
) -> None:
    write_source_tables(clean_db, TABLES, database)
    build_trees(clean_db, database, CONFIG)
    build_basic_tasks(clean_db, database, CONFIG)
    build_union_tasks(clean_db, database, CONFIG)
    before = _tasks(clean_db)
    family = [
        t
        for t, r in before.items()
        if {"nobel", "booker"} <= set(r["tables"])  # type: ignore[arg-type]
    ]
    assert family, "the fixture has a Union task over the Nobel and Booker tables"
    # a share that splits the lone tables: the family's unit (its smallest id, "booker") goes
    # to one side, "states" to the other
    percent = _percent_splitting("booker", "states")
    _add_kp_task(clean_db, "kp:across", ["nobel", "states"])
    _add_kp_task(clean_db, "kp:within", ["nobel", "booker"])

    report = run_quality(clean_db, database, QualityConfig(heldout_percent=percent))

    after = _tasks(clean_db)
    family_side = "heldout" if source_heldout("booker", percent) else "train"
    family_kept = 0
    for task_id, row in after.items():
        if not set(row["tables"]) & {"nobel", "booker"}:  # type: ignore[arg-type]
            continue
        if row["status"] == "kept":  # other checks may reject a task; never for the split
            assert row["split"] == family_side, task_id
            family_kept += 1
        else:
            assert row["reason"] != "split_leak", task_id
    assert family_kept >= 2  # at least the Basic tasks of both tables, on one side
    statuses = {
        t: (r["status"], r["reason"], r["split"]) for t, r in after.items() if t.startswith("kp:")
    }
    assert statuses["kp:across"][:2] == ("rejected", "split_leak")
    assert statuses["kp:within"] == ("kept", None, family_side)
    assert report.notes["check split_leak"] == 1
    saved, _, _ = clean_db.execute_query(
        "MATCH (r:Rejection {stage: 'quality', reason: 'split_leak'}) RETURN r.record_id AS id, "
        "r.detail AS detail",
        database_=database,
    )
    assert [r["id"] for r in saved] == ["kp:across"]
    assert "held-out sources" in saved[0]["detail"]
    kept = {t: r for t, r in after.items() if r["status"] == "kept" and r["tables"]}
    assert {r["split"] for r in kept.values()} == {"train", "heldout"}
    records, _, _ = clean_db.execute_query(CROSSING, database_=database)
    assert records[0]["n"] == 0
    assert report.notes["split train tasks sharing a source with a held-out task"] == 0

    again = run_quality(clean_db, database, QualityConfig(heldout_percent=percent))
    assert again.rejected == 0 and again.kept == report.kept
    assert _tasks(clean_db) == after  # a second run moves no table across the split


def test_a_family_is_held_out_only_when_all_its_tables_are() -> None:
    percent = _percent_splitting("nobel", "booker")
    held, train = sorted(["nobel", "booker"], key=lambda t: not source_heldout(t, percent))
    assert split_of_sources([held], [], percent) == "heldout"
    assert split_of_sources([train], [], percent) == "train"
    assert split_of_sources([held, train], [], percent) == "split_leak"
    assert split_of_sources([], ["https://en.wikipedia.org/wiki/X"], 100) == "heldout"
    assert split_of_sources([], [], percent) == "none"
    # joined into one unit by a Union family, the two tables are never a leak
    units = source_units([{"kind": "leaper", "tables": ["nobel", "booker"]}])
    assert split_of_sources([held, train], [], percent, units) in ("heldout", "train")
    assert split_of_sources([held], [], percent, units) == split_of_sources(
        [train], [], percent, units
    )


@pytest.mark.slow
def test_the_default_data_splits_by_tables(
    clean_db: neo4j.Driver, database: str | None, tmp_path: Path
) -> None:
    """Through the quality gate on the default data: both sides hold tasks, no table is a
    source of both, and the gate says how many held-out answer entities train tasks share."""
    stages = ("ingest", "relations", *LEAPER, "shaper-seeds", "shaper-expand", "quality")
    reports = run_pipeline(stages, clean_db, database, out_dir=tmp_path)
    quality = reports[-1]
    print("\n".join(quality.summary_lines()))
    assert quality.notes["split train tasks"] > 0 and quality.notes["split heldout tasks"] > 0
    assert quality.notes["split train tasks sharing a source with a held-out task"] == 0
    records, _, _ = clean_db.execute_query(CROSSING, database_=database)
    assert records[0]["n"] == 0
    assert "held-out answers" in quality.notes["split answer entities on both sides"]
    leaks = cypher.read(
        clean_db, "stages/count_rejections_by_reason", database=database, stage="quality"
    )
    print(leaks)
