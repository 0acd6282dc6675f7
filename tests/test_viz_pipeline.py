"""The pictures and the report over real pipeline output: the default data through the
synthesis stages, then every kept WebLeaper task drawn, and the report stage at the end."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import neo4j
import pytest

from seekgraph.common.answers import gold_records
from seekgraph.graphdb import cypher
from seekgraph.viz import graphs
from seekgraph.viz.browser_guide import MAX_GRAPH_NODES, editor_text, query_for
from seekgraph.viz.html import render_html
from seekgraph.viz.svg import render_svg
from tests.conftest import REPO_ROOT, run_pipeline

SYNTHESIS = (
    "ingest",
    "relations",
    "leaper-trees",
    "leaper-basic",
    "leaper-union",
    "leaper-reverse",
    "report",
)


def readme_table_counts() -> dict[str, tuple[int, int]]:
    """(kept, rejected) per stage in README.md's generated pipeline table."""
    spec = importlib.util.spec_from_file_location(
        "gen_readme_numbers", REPO_ROOT / "scripts" / "gen_readme_numbers.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    counts: dict[str, tuple[int, int]] = module.table_counts((REPO_ROOT / "README.md").read_text())
    return counts


def _prop(tooltip: str, key: str) -> str:
    """A property of a picture's node, read back from its tooltip (`key: value` lines)."""
    return next(line.split(": ", 1)[1] for line in tooltip.splitlines() if line.startswith(key))


def _entity_id(tooltip: str) -> str:
    return _prop(tooltip, "entity_id")


@pytest.mark.slow
def test_viz_and_report_over_the_default_pipeline(
    clean_db: neo4j.Driver, database: str | None, tmp_path: Path
) -> None:
    reports = run_pipeline(SYNTHESIS, clean_db, database, out_dir=tmp_path)
    # the README's pipeline table is generated from a run; its synthesis rows are this build's
    table = readme_table_counts()
    built = {r.stage: (r.kept, r.rejected) for r in reports[:-1]}
    assert {stage: table.get(stage) for stage in built} == built, (
        "README.md's pipeline table differs from a build of the default data: "
        "run `make run`, then `make docs`"
    )
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
    props = {
        r["id"]: r
        for r in clean_db.execute_query(
            "MATCH (t:Task {kind: 'leaper'}) RETURN t.task_id AS id, t.answer_json AS answers, "
            "t.tree_json AS tree",
            database_=database,
        ).records
    }
    for task in tasks:
        vg = graphs.load(clean_db, "task", task["task_id"], database, max_anchors=4)
        roles = {n.role for n in vg.nodes}
        assert "target" in roles, task
        assert vg.count("Tree") >= 1 and vg.count("Table") >= 1, task
        # every answer is drawn with a gold ring, and nothing else is ringed
        gold = {r.entity_id for r in gold_records(props[task["task_id"]]["answers"])}
        ringed = {_entity_id(n.tooltip) for n in vg.nodes if n.role == "target"}
        assert ringed == gold, (task["task_id"], ringed ^ gold)
        assert vg.title.startswith(f"{task['variant']} task {task['task_id']}: {len(gold)} answers")
        tree = json.loads(props[task["task_id"]]["tree"])
        named = set(tree.get("trees") or [f"tree:{tree['table_id']}"])
        drawn = {_prop(n.tooltip, "tree_id") for n in vg.nodes if n.label == "Tree"}
        assert drawn == named, task
        # Neo4j Browser's focused query draws at most 40 nodes (it drew 120 for a union)
        text = editor_text(query_for("explore/show_leaper_task"), task["task_id"])
        with clean_db.session(database=database) as session:
            assert len(session.run(text).graph().nodes) <= MAX_GRAPH_NODES, task
        if task["variant"] != "basic":
            assert any(e.type == "SHARES" for e in vg.edges), task
        if task["variant"] == "reverse-union":
            assert "pivot" in roles, task
        assert "new vis.Network" in render_html(vg)
        assert render_svg(vg).count('class="node"') == len(vg.nodes)
