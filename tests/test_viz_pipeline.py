"""The pictures and the report over real pipeline output: the default data through the
synthesis stages, then every kept WebLeaper task drawn, and the report stage at the end."""

from __future__ import annotations

from pathlib import Path

import neo4j
import pytest

from graphdb import cypher
from tests.conftest import run_pipeline
from viz import graphs
from viz.html import render_html
from viz.svg import render_svg

SYNTHESIS = (
    "ingest",
    "relations",
    "leaper-trees",
    "leaper-basic",
    "leaper-union",
    "leaper-reverse",
    "report",
)


@pytest.mark.slow
def test_viz_and_report_over_the_default_pipeline(
    clean_db: neo4j.Driver, database: str | None, tmp_path: Path
) -> None:
    reports = run_pipeline(SYNTHESIS, clean_db, database, out_dir=tmp_path)
    report = reports[-1]
    assert report.stage == "report"
    assert Path(str(report.notes["report"])).is_file()
    assert report.kept >= 3  # stages, tasks and |R| plots at least

    tasks = [
        t
        for t in cypher.read(clean_db, "explore/list_tasks", database=database)
        if t["kind"] == "leaper" and t["status"] == "kept"
    ]
    variants = {t["variant"] for t in tasks}
    assert variants == {"basic", "union", "reverse-union"}
    for task in tasks:
        vg = graphs.load(clean_db, "task", task["task_id"], database, max_anchors=8)
        roles = {n.role for n in vg.nodes}
        assert "target" in roles, task
        assert vg.count("Tree") >= 1 and vg.count("Table") >= 1, task
        if task["variant"] != "basic":
            assert any(e.type == "SHARES" for e in vg.edges), task
        if task["variant"] == "reverse-union":
            assert "pivot" in roles, task
        assert "new vis.Network" in render_html(vg)
        assert render_svg(vg).count('class="node"') == len(vg.nodes)
