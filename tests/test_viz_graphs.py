"""The pictures' content: what each exploration query fetches and which roles get highlighted."""

from __future__ import annotations

import re
from collections import Counter

import neo4j
import pytest

from tests.viz_sample import BASIC, KP, PRUNED, REVERSE, ROLLOUT, UNION, load_sample
from viz import graphs
from viz.errors import NotFoundError
from viz.html import levels, render_html
from viz.svg import render_svg


@pytest.fixture
def sample_db(clean_db: neo4j.Driver, database: str | None) -> neo4j.Driver:
    load_sample(clean_db, database)
    return clean_db


def _labels(vg: graphs.VizGraph) -> Counter[str]:
    return Counter(n.label for n in vg.nodes)


def _captions(vg: graphs.VizGraph, role: str) -> set[str]:
    return {n.caption for n in vg.nodes if n.role == role}


def test_basic_task_is_its_tree_with_targets_ringed(sample_db: neo4j.Driver) -> None:
    vg = graphs.load(sample_db, "task", BASIC)
    assert _labels(vg) == {"Task": 1, "Tree": 1, "Table": 1, "Entity": 3, "Value": 6}
    # The 'born' fact belongs to another table and must not be drawn.
    assert "1954" not in {n.caption for n in vg.nodes}
    assert _captions(vg, "target") == {
        "Kazuo Ishiguro",
        "Ben Okri",
        "Anne Enright",
        "British",
        "Nigerian",
        "Irish",
        "1989",
        "1991",
        "2007",
    }
    assert not any(e.type == "TARGET" for e in vg.edges)  # rings, not edges
    assert vg.title.startswith("basic task task-basic: 9 targets")
    assert {name for name, _, _ in vg.legend} >= {
        "Task",
        "Tree",
        "Table",
        "Entity",
        "Value",
        "target",
    }


def test_union_task_shows_both_trees_and_shared_relations(sample_db: neo4j.Driver) -> None:
    vg = graphs.load(sample_db, "task", UNION)
    assert _labels(vg)["Tree"] == 2 and _labels(vg)["Table"] == 2
    assert _labels(vg)["Biclique"] == 1
    shares = [e for e in vg.edges if e.type == "SHARES"]
    assert {vg.node(e.target).caption for e in shares} == {"nationality", "year"}
    assert all(e.width == 3.0 for e in shares)
    assert len(_captions(vg, "target")) == 4


def test_reverse_union_marks_pivot_and_clues(sample_db: neo4j.Driver) -> None:
    vg = graphs.load(sample_db, "task", REVERSE)
    assert _captions(vg, "pivot") == {"Kazuo Ishiguro"}
    assert _captions(vg, "clue") == {"1989", "2017"}
    assert _captions(vg, "target") == {"British"}
    assert {"pivot", "clue", "target"} <= {name for name, _, _ in vg.legend}


def test_biclique_picture(sample_db: neo4j.Driver) -> None:
    vg = graphs.load(sample_db, "biclique", UNION)
    assert _labels(vg) == {"Task": 1, "Biclique": 1, "Tree": 2, "Table": 2, "Relation": 2}
    assert "2 trees x 2 shared relations" in vg.title


def test_kp_task_layers_and_target_variable(sample_db: neo4j.Driver) -> None:
    vg = graphs.load(sample_db, "kp", KP)
    assert _labels(vg) == {"Task": 1, "Variable": 3, "Triple": 4, "Constant": 2, "Value": 1}
    target = [n for n in vg.nodes if n.role == "target"]
    assert [n.caption for n in target] == ["? (L0)"]
    assert {n.layer for n in vg.nodes if n.label == "Triple"} == {0, 1}
    assert "4 triples, 2 layer(s)" in vg.title
    rank = levels(vg)
    task = next(n for n in vg.nodes if n.label == "Task")
    expanded = next(n for n in vg.nodes if n.caption.startswith("equals"))
    assert rank[task.id] < rank[target[0].id] < rank[expanded.id]
    assert any(e.type == "EXPANDS" and e.dashed for e in vg.edges)


@pytest.mark.parametrize("rollout_id", [ROLLOUT, PRUNED])
def test_trajectory_marks_necessary_dag_and_pruned_steps(
    sample_db: neo4j.Driver, rollout_id: str
) -> None:
    vg = graphs.load(sample_db, "trajectory", rollout_id)  # the pruned id shows its original
    actions = {n.caption: n.role for n in vg.nodes if n.label == "Action"}
    assert actions == {
        "a0 question": "necessary",
        "a1 search": "necessary",
        "a2 visit": "pruned",
        "a3 answer": "necessary",
    }
    # The fact only the pruned visit produced, and no action used, is counted, not drawn.
    assert _captions(vg, "pruned") == {"a2 visit"}
    assert "Ben Okri biography" not in {n.caption for n in vg.nodes}
    assert "1 facts that no later action used are not drawn" in vg.notes
    red = [e for e in vg.edges if e.width == 3.0]
    assert len(red) == 4  # a0->i0->a1->i1->a3
    assert all(e.type != "HAS_NODE" for e in vg.edges)
    assert "3 of 4 actions necessary; 1 pruned" in vg.notes
    assert vg.title.startswith(f"trajectory {ROLLOUT}: 4 rounds")


def test_steps_picture(sample_db: neo4j.Driver) -> None:
    vg = graphs.load(sample_db, "steps", ROLLOUT)
    assert _labels(vg) == {"Rollout": 1, "Task": 1, "Step": 3}
    assert sum(1 for e in vg.edges if e.type == "NEXT") == 2


def test_unknown_ids_and_kinds_are_clear_errors(sample_db: neo4j.Driver) -> None:
    with pytest.raises(NotFoundError, match="no task with id 'nope'"):
        graphs.load(sample_db, "task", "nope")
    with pytest.raises(NotFoundError, match="no rollout"):
        graphs.load(sample_db, "trajectory", "nope")
    with pytest.raises(NotFoundError, match="unknown picture kind"):
        graphs.load(sample_db, "movie", BASIC)


def test_html_is_self_contained_and_svg_has_legend(sample_db: neo4j.Driver) -> None:
    vg = graphs.load(sample_db, "task", REVERSE)
    page = render_html(vg)
    # Offline: no external script, stylesheet or image.
    assert not re.search(r"""(src|href)=["']https?://""", page)
    assert "vis-network" in page and "new vis.Network" in page
    assert page.count('"role": "pivot"') == 2  # in the data and in the vis nodes
    svg = render_svg(vg)
    assert svg.count('class="node"') == len(vg.nodes)
    for text in ("legend", "pivot", "gold ring: in the target set R", "Kazuo Ishiguro"):
        assert text in svg


def test_captions_cannot_break_out_of_the_page(clean_db: neo4j.Driver) -> None:
    clean_db.execute_query(
        "CREATE (:Task {task_id: 'x', kind: 'leaper', variant: 'basic', "
        "question: '</script><script>alert(1)</script>'})-[:TARGET]->"
        "(:Entity {entity_id: 'e', name: '<b>&'})"
    )
    page = render_html(graphs.load(clean_db, "task", "x"))
    assert "</script><script>alert(1)" not in page
    assert "<b>&" not in page.split("<script>")[0]


def test_task_pictures_cap_anchors_per_tree(sample_db: neo4j.Driver) -> None:
    vg = graphs.load(sample_db, "task", BASIC, max_anchors=2)
    anchors = {n.caption for n in vg.nodes if n.label == "Entity"}
    assert anchors == {"Anne Enright", "Ben Okri"}  # targets first, then by name
    assert len(vg.nodes) == 9  # Kazuo Ishiguro and his two values are left out
    assert (
        vg.notes[-1].startswith("showing 2 of 3 anchors") and "3 targets not drawn" in vg.notes[-1]
    )
    # The pivot always stays, even with a cap of one anchor per tree.
    rev = graphs.load(sample_db, "task", REVERSE, max_anchors=1)
    assert _captions(rev, "pivot") == {"Kazuo Ishiguro"}


def test_interchangeable_facts_are_grouped_without_changing_the_dag() -> None:
    def node(i: str, label: str) -> graphs.VizNode:
        return graphs.VizNode(id=i, label=label, caption=i, tooltip=i, color="#fff")

    vg = graphs.VizGraph(kind="trajectory", subject_id="r", title="t")
    vg.nodes = [node("a0", "Action"), node("a1", "Action")]
    vg.nodes += [node(f"f{i}", "Information") for i in range(5)]
    vg.edges = [graphs.VizEdge("a0", f"f{i}", "PRODUCES") for i in range(5)]
    vg.edges += [graphs.VizEdge(f"f{i}", "a1", "ENABLES") for i in range(5)]
    graphs._group_facts(vg, {n.id: n for n in vg.nodes})
    captions = sorted(n.caption for n in vg.nodes if n.label == "Information")
    assert captions == ["+3 facts", "f0", "f1"]
    for n in vg.nodes:
        if n.label == "Information":
            assert {(e.source, e.target) for e in vg.edges if n.id in (e.source, e.target)} == {
                ("a0", n.id),
                (n.id, "a1"),
            }
