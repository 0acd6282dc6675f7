"""The pictures' content: what each exploration query fetches and which roles get highlighted."""

from __future__ import annotations

import re
from collections import Counter

import neo4j
import pytest

from seekgraph.viz import graph_layout, graph_roles, graphs, vizgraph
from seekgraph.viz.errors import NotFoundError
from seekgraph.viz.html import levels, render_html
from seekgraph.viz.svg import render_svg
from tests.viz_sample import (
    BASIC,
    KP,
    LONG,
    PRUNED,
    REVERSE,
    ROLLOUT,
    UNION,
    load_sample,
    long_rollout,
)


@pytest.fixture
def sample_db(clean_db: neo4j.Driver, database: str | None) -> neo4j.Driver:
    load_sample(clean_db, database)
    return clean_db


def _labels(vg: vizgraph.VizGraph) -> Counter[str]:
    return Counter(n.label for n in vg.nodes)


def _captions(vg: vizgraph.VizGraph, role: str) -> set[str]:
    return {n.caption for n in vg.nodes if n.role == role}


def test_basic_task_is_its_tree_with_answers_ringed(sample_db: neo4j.Driver) -> None:
    vg = graphs.load(sample_db, "task", BASIC)
    assert _labels(vg) == {"Task": 1, "Tree": 1, "Table": 1, "Entity": 3, "Value": 6}
    # The 'born' fact belongs to another table and must not be drawn.
    assert "1954" not in {n.caption for n in vg.nodes}
    # a Basic task's answers are its anchors (one gold record each); their values are facts
    assert _captions(vg, "target") == {"Kazuo Ishiguro", "Ben Okri", "Anne Enright"}
    assert not any(e.type == "TARGET" for e in vg.edges)  # rings, not edges
    assert vg.title == "basic task task-basic: 3 answers from 1 table (|R| = 9: answers, " + (
        "anchors and asked values)"
    )
    assert {name for name, _, _ in vg.legend} >= {
        "Task",
        "Tree",
        "Table",
        "Entity",
        "Value",
        "target",
    }


def test_union_task_draws_the_trees_its_question_names_and_every_answer(
    sample_db: neo4j.Driver,
) -> None:
    """A union task built from a biclique of three trees names two of them: the picture draws
    those two (not the third), rings its one answer (not the 7 targets of R) and keeps the
    answer whatever the anchor cap."""
    vg = graphs.load(sample_db, "task", UNION)
    assert _labels(vg)["Tree"] == 2 and _labels(vg)["Table"] == 2
    assert "Commonwealth Writers' Prize winners" not in {n.caption for n in vg.nodes}
    assert "Peter Carey" not in {n.caption for n in vg.nodes}
    assert _labels(vg)["Biclique"] == 1
    shares = [e for e in vg.edges if e.type == "SHARES"]
    assert {vg.node(e.target).caption for e in shares} == {"nationality", "year"}
    assert all(e.width == 3.0 for e in shares)
    assert _captions(vg, "target") == {"Kazuo Ishiguro"}
    assert vg.title.startswith("union task task-union: 1 answers from 2 tables (|R| = 7")
    # the answer's asked facts from both tables, and nothing of the other table
    ishiguro = next(n for n in vg.nodes if n.caption == "Kazuo Ishiguro")
    facts = {vg.node(e.target).caption for e in vg.edges if e.source == ishiguro.id}
    assert facts == {"British", "1989", "2017"}
    capped = graphs.load(sample_db, "task", UNION, max_anchors=1)
    assert _captions(capped, "target") == {"Kazuo Ishiguro"}
    assert capped.count("Entity") == 3  # the answer and one other anchor per tree


def test_reverse_union_marks_pivot_and_clues(sample_db: neo4j.Driver) -> None:
    vg = graphs.load(sample_db, "task", REVERSE)
    assert _captions(vg, "pivot") == {"British"}
    assert _captions(vg, "clue") == {"1989", "2017"}
    assert _captions(vg, "target") == {"Doris Lessing"}
    assert _labels(vg)["Tree"] == 2
    assert {"pivot", "clue", "target"} <= {name for name, _, _ in vg.legend}


def test_biclique_picture(sample_db: neo4j.Driver) -> None:
    vg = graphs.load(sample_db, "biclique", UNION)
    assert _labels(vg) == {"Task": 1, "Biclique": 1, "Tree": 3, "Table": 3, "Relation": 2}
    assert "3 trees x 2 shared relations" in vg.title


def test_kp_task_shows_its_answer_and_each_variables_bindings(sample_db: neo4j.Driver) -> None:
    vg = graphs.load(sample_db, "kp", KP)
    assert _labels(vg) == {
        "Task": 1,
        "Variable": 2,
        "Triple": 3,
        "Constant": 3,
        "Value": 1,
        "Entity": 2,
    }
    target = [n for n in vg.nodes if n.role == "target" and n.label == "Variable"]
    assert [n.caption for n in target] == ["? (L0) = Doris Lessing"]
    # the executed answer hangs off the target variable, with a gold ring
    answer = next(n for n in vg.nodes if n.caption == "Doris Lessing")
    assert answer.role == "target"
    assert any(
        e.type == "BINDS" and (e.source, e.target) == (target[0].id, answer.id) for e in vg.edges
    )
    assert "answer: Doris Lessing" in vg.title and "3 triples, 2 layer(s)" in vg.title
    assert "? binds 1: Doris Lessing" in vg.notes and "V@Y binds 1: 2007" in vg.notes
    assert "V@Y (L1) = 2007" in {n.caption for n in vg.nodes}
    assert {n.layer for n in vg.nodes if n.label == "Triple"} == {0, 1}
    rank = levels(vg)
    task = next(n for n in vg.nodes if n.label == "Task")
    expanded = next(n for n in vg.nodes if n.caption.startswith("~year"))
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
    assert _captions(vg, "pruned") == {"a2 visit"}
    # facts are edges from the action that produced them to the necessary action using them;
    # the fact no action used is counted, not drawn
    uses = {
        (vg.node(e.source).caption, vg.node(e.target).caption, e.caption)
        for e in vg.edges
        if e.type == "USES"
    }
    assert uses == {
        ("a0 question", "a1 search", "Booker Prize winners"),
        ("a1 search", "a3 answer", "Kazuo Ishiguro 1989"),
    }
    assert all(e.width == 3.0 for e in vg.edges if e.type == "USES")
    assert "1 facts that no action used are not drawn" in vg.notes
    assert not any(n.label == "Information" for n in vg.nodes)
    assert all(e.type != "HAS_NODE" for e in vg.edges)
    assert "3 of 4 actions necessary; 1 pruned" in vg.notes
    assert vg.title.startswith(f"trajectory {ROLLOUT}: 4 rounds, 1800 tokens")
    assert "pruned version: 3 rounds, 1100 tokens" in vg.notes


def test_steps_picture(sample_db: neo4j.Driver) -> None:
    vg = graphs.load(sample_db, "steps", ROLLOUT)
    assert _labels(vg) == {"Rollout": 1, "Task": 1, "Step": 3}
    assert sum(1 for e in vg.edges if e.type == "NEXT") == 2
    assert _captions(vg, "pruned") == {"#1 visit"}  # the recorded detour


def test_a_trajectory_of_120_steps_is_drawn_in_readable_pages(
    clean_db: neo4j.Driver, database: str | None
) -> None:
    """The steps view was one thin strip and a union trajectory's SVG 3824x5483 pt: now an
    ordered picture is cut into pages laid out in rows of five, each a few hundred points."""
    load_sample(clean_db, database, long_rollout(120))
    steps = graphs.load(clean_db, "steps", LONG)
    assert steps.count("Step") == graph_layout.PER_PAGE["steps"] == 20
    assert "page 1 of 6: steps 1-20 of 120; --page 2 for the next" in steps.notes
    last = graphs.load(clean_db, "steps", LONG, options=vizgraph.Options(page=6))
    assert {n.caption for n in last.nodes if n.label == "Step"} == {
        f"#{i} tool_call" for i in range(100, 120)
    }
    trajectory = graphs.load(clean_db, "trajectory", LONG)
    assert trajectory.count("Action") == 10 and "page 1 of 13" in " ".join(trajectory.notes)
    for vg, label, n_rows in ((steps, "Step", 4), (last, "Step", 4), (trajectory, "Action", 2)):
        cells = [n for n in vg.nodes if n.label == label]
        assert len({n.x for n in cells}) == graph_layout.COLUMNS
        assert len({n.y for n in cells}) == n_rows
        width, height = _svg_size(render_svg(vg))
        assert width < 1400 and height < 1400, (vg.kind, width, height)
    with pytest.raises(NotFoundError, match="page 7 does not exist: the picture has 6 page"):
        graphs.load(clean_db, "steps", LONG, options=vizgraph.Options(page=7))


def _svg_size(svg: str) -> tuple[float, float]:
    match = re.search(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"', svg)
    assert match, svg[:300]
    return float(match.group(1)), float(match.group(2))


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
    for text in ("legend", "pivot", "gold ring: an answer (a gold record)", "Doris Lessing"):
        assert text in svg


def test_captions_cannot_break_out_of_the_page(clean_db: neo4j.Driver) -> None:
    clean_db.execute_query(
        "CREATE (:Task {task_id: 'x', kind: 'leaper', variant: 'basic', "
        "question: '</script><script>alert(1)</script>'})-[:TARGET {role: 'anchor'}]->"
        "(:Entity {entity_id: 'e', name: '<b>&'})"
    )
    page = render_html(graphs.load(clean_db, "task", "x"))
    assert "</script><script>alert(1)" not in page
    assert "<b>&" not in page.split("<script>")[0]


def test_task_pictures_cap_other_anchors_and_answers(sample_db: neo4j.Driver) -> None:
    vg = graphs.load(sample_db, "task", UNION, max_anchors=1)
    assert vg.notes[-1] == (
        "showing 2 of 3 other anchors (at most 1 per tree; --max-anchors 0 draws all)"
    )
    capped = graphs.load(sample_db, "task", BASIC, options=vizgraph.Options(max_answers=2))
    assert _captions(capped, "target") == {"Anne Enright", "Ben Okri"}  # by name
    assert len(capped.nodes) == 9  # Kazuo Ishiguro and his two values are left out
    assert capped.notes[-1].startswith("showing 2 of 3 answers (--max-answers 0 draws all")
    # The pivot always stays, even with a cap of one anchor per tree.
    rev = graphs.load(sample_db, "task", REVERSE, max_anchors=1)
    assert _captions(rev, "pivot") == {"British"}


def test_interchangeable_nodes_are_grouped_without_changing_connectivity() -> None:
    def node(i: str, label: str) -> vizgraph.VizNode:
        return vizgraph.VizNode(id=i, label=label, caption=i, tooltip=i, color="#fff")

    vg = vizgraph.VizGraph(kind="steps", subject_id="r", title="t")
    vg.nodes = [node("s0", "Step"), node("s1", "Step")]
    vg.nodes += [node(f"e{i}", "Entity") for i in range(5)]
    vg.edges = [vizgraph.VizEdge("s0", f"e{i}", "REVEALED") for i in range(4)]
    vg.edges.append(vizgraph.VizEdge("s1", "e4", "REVEALED"))
    graph_roles.group_nodes(vg, {n.id: n for n in vg.nodes}, ("Entity",), "revealed")
    captions = sorted(n.caption for n in vg.nodes if n.label == "Entity")
    assert captions == ["4 revealed: e0", "e4"]
    assert {(e.source, vg.node(e.target).caption) for e in vg.edges} == {
        ("s0", "4 revealed: e0"),
        ("s1", "e4"),
    }
