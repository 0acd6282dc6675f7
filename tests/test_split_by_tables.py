"""The held-out split is a function of source tables (issue 31, item 4), on a real server: after
the quality gate no table is a source of a held-out and of a train task, and a Union task over a
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
from seekgraph.synth.split import source_heldout, split_of_sources
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


def test_no_table_crosses_the_split_and_a_union_over_both_is_a_leak(
    clean_db: neo4j.Driver, database: str | None
) -> None:
    write_source_tables(clean_db, TABLES, database)
    build_trees(clean_db, database, CONFIG)
    build_basic_tasks(clean_db, database, CONFIG)
    build_union_tasks(clean_db, database, CONFIG)
    before = _tasks(clean_db)
    spanning = [
        t
        for t, r in before.items()
        if {"nobel", "booker"} <= set(r["tables"])  # type: ignore[arg-type]
    ]
    assert spanning, "the fixture has a Union task over the Nobel and Booker tables"
    percent = _percent_splitting("nobel", "booker")
    held_table = "nobel" if source_heldout("nobel", percent) else "booker"

    report = run_quality(clean_db, database, QualityConfig(heldout_percent=percent))

    after = _tasks(clean_db)
    for task_id in spanning:
        assert (after[task_id]["status"], after[task_id]["reason"]) == ("rejected", "split_leak")
    assert report.notes["check split_leak"] == len(spanning)
    saved, _, _ = clean_db.execute_query(
        "MATCH (r:Rejection {stage: 'quality', reason: 'split_leak'}) RETURN r.record_id AS id, "
        "r.detail AS detail",
        database_=database,
    )
    assert sorted(r["id"] for r in saved) == sorted(spanning)
    assert all("held-out sources" in r["detail"] for r in saved)
    kept = {t: r for t, r in after.items() if r["status"] == "kept" and r["tables"]}
    sides = {r["split"] for r in kept.values()}
    assert sides == {"train", "heldout"}
    for r in kept.values():  # every kept task sits on its tables' side
        expected = "heldout" if set(r["tables"]) == {held_table} else "train"  # type: ignore[arg-type]
        assert r["split"] == expected
    records, _, _ = clean_db.execute_query(CROSSING, database_=database)
    assert records[0]["n"] == 0
    assert report.notes["split train tasks sharing a source with a held-out task"] == 0

    again = run_quality(clean_db, database, QualityConfig(heldout_percent=percent))
    assert again.rejected == 0 and again.kept == report.kept


def test_a_family_is_held_out_only_when_all_its_tables_are() -> None:
    percent = _percent_splitting("nobel", "booker")
    held, train = sorted(["nobel", "booker"], key=lambda t: not source_heldout(t, percent))
    assert split_of_sources([held], [], percent) == "heldout"
    assert split_of_sources([train], [], percent) == "train"
    assert split_of_sources([held, train], [], percent) == "split_leak"
    assert split_of_sources([], ["https://en.wikipedia.org/wiki/X"], 100) == "heldout"
    assert split_of_sources([], [], percent) == "none"


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
