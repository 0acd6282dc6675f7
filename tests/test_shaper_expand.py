"""Seeds and layer-wise expansion on a real server; shortcut and redundancy are provably rejected."""

from __future__ import annotations

import json

import neo4j
import pytest

from seekgraph.graphdb import cypher
from seekgraph.synth.shaper.config import ShaperConfig
from seekgraph.synth.shaper.evaluate import KGraph, evaluate
from seekgraph.synth.shaper.expand import expand_tasks
from seekgraph.synth.shaper.kp import Const, KPTask, Triple, Var
from seekgraph.synth.shaper.ops import GraphOps
from seekgraph.synth.shaper.questions import check_question, render
from seekgraph.synth.shaper.seeds import circular_variable, make_seeds
from seekgraph.synth.shaper.store import load_tasks
from seekgraph.synth.shaper.validate import find_redundant, validate_expansion
from tests.conftest import DEFAULT_DATA
from tests.scaffolding.kgraph import merge_kgraph

T, A = Var("?"), Var("V@A")
EXPAND = ShaperConfig(layers=2, seed=1, leaf_tries=2, candidate_tries=2)


def e(name: str) -> Const:
    return Const(name, f"/wiki/{name}", "Entity")


# Authors, their nationality and prizes; the prize's founding year is a value.
GRAPH = KGraph(
    facts={
        ("/wiki/Byatt", "nationality", "/wiki/UK"),
        ("/wiki/Ishiguro", "nationality", "/wiki/UK"),
        ("/wiki/Grossman", "nationality", "/wiki/Israel"),
        ("/wiki/Byatt", "award", "/wiki/Booker"),
        ("/wiki/Grossman", "award", "/wiki/IntBooker"),
        ("/wiki/Booker", "founded", "/wiki/Y1969"),
        ("/wiki/IntBooker", "founded", "/wiki/Y2005"),
        ("/wiki/Booker", "country", "/wiki/UK"),
    },
    links={("/wiki/Byatt", "/wiki/Possession"), ("/wiki/Ishiguro", "/wiki/Possession")},
)


@pytest.fixture
def graph_ops(clean_db: neo4j.Driver, database: str | None) -> GraphOps:
    merge_kgraph(clean_db, GRAPH, database)
    return GraphOps(clean_db, database)


def test_a_shortcut_is_rejected(graph_ops: GraphOps) -> None:
    # Seed: British authors who won the Booker -> Byatt. Expanding "UK" into V@A with a definition
    # keeps the answer, but the triples avoiding V@A ([?, award, Booker]) already yield it.
    old = KPTask("old", (Triple(T, "nationality", (e("UK"),)), Triple(T, "award", (e("Booker"),))))
    assert evaluate(old, GRAPH) == {"/wiki/Byatt"}
    new = KPTask(
        "new",
        (
            Triple(T, "nationality", (A,)),
            Triple(T, "award", (e("Booker"),)),
            Triple(A, "~country", (e("Booker"),)),
        ),
    )
    for answer_of in (graph_ops.answer_of, lambda t: evaluate(t, GRAPH)):
        failure = validate_expansion({"/wiki/Byatt"}, new, A, [e("Booker")], answer_of)
        assert failure is not None and failure.reason == "shortcut"


def test_a_direct_shortcut_constant_is_rejected(graph_ops: GraphOps) -> None:
    # [?, award, V@A], [V@A, founded, Y1969] is fine; defining V@A by [V@A, country, UK] instead
    # names a constant one hop from the answer Byatt (Byatt's nationality is UK).
    new = KPTask("new", (Triple(T, "award", (A,)), Triple(A, "country", (e("UK"),))))
    failure = validate_expansion(
        {"/wiki/Byatt"}, new, A, [e("UK")], graph_ops.answer_of, graph_ops.neighbour_refs
    )
    assert failure is not None and failure.reason == "shortcut_direct"
    assert validate_expansion({"/wiki/Byatt"}, new, A, [e("UK")], graph_ops.answer_of) is None


def test_a_redundant_triple_is_rejected(graph_ops: GraphOps) -> None:
    # Old: authors of an award founded in 1969 -> Byatt. New: V@A := founded 1969 AND country UK;
    # the country triple is not needed (founded 1969 already picks out the Booker).
    old = KPTask("old", (Triple(T, "award", (e("Booker"),)),))
    new = KPTask(
        "new",
        (
            Triple(T, "award", (A,)),
            Triple(A, "founded", (e("Y1969"),)),
            Triple(A, "country", (e("UK"),)),
        ),
    )
    assert graph_ops.answer_of(old) == {"/wiki/Byatt"}
    for answer_of in (graph_ops.answer_of, lambda t: evaluate(t, GRAPH)):
        failure = validate_expansion({"/wiki/Byatt"}, new, A, [e("Y1969"), e("UK")], answer_of)
        assert failure is not None and failure.reason == "redundant"
        assert failure.detail.startswith(("triple 1", "triple 2"))
    good = KPTask("good", new.triples[:2])
    assert (
        validate_expansion(
            {"/wiki/Byatt"}, good, A, [e("Y1969")], graph_ops.answer_of, graph_ops.neighbour_refs
        )
        is None
    )
    assert find_redundant(good, {"/wiki/Byatt"}, graph_ops.answer_of) is None


def test_an_inconsistent_expansion_is_rejected(graph_ops: GraphOps) -> None:
    new = KPTask("new", (Triple(T, "award", (A,)), Triple(A, "founded", (e("Y1969"), e("Y2005")))))
    failure = validate_expansion({"/wiki/Byatt"}, new, A, [], graph_ops.answer_of)
    assert failure is not None and failure.reason == "inconsistent"


def test_question_names_every_constant_and_never_the_answer() -> None:
    task = KPTask(
        "q",
        (
            Triple(T, "award", (A,)),
            Triple(A, "founded", (e("Y1969"),)),
            Triple(T, "links_to", (e("Possession"),)),
        ),
    )
    q = render(task)
    assert q == (
        'Which topics have an award with founded "Y1969" and have a Wikipedia article that '
        'links to the article on "Possession"?'
    )
    assert check_question(q, task.constants(), ["Byatt"]) is None
    assert check_question(q, task.constants(), ["Possession"]) == "names_answer"
    assert check_question("Which author?", task.constants(), []) == "missing_constant"


def test_a_variable_pinned_to_a_named_entity_is_circular(graph_ops: GraphOps) -> None:
    # "entity A is an award of the answer, and the answer won "Booker"": A can only be Booker.
    circular = KPTask("c", (Triple(T, "award", (A,)), Triple(T, "award", (e("Booker"),))))
    assert circular_variable(graph_ops, circular) == "V@A"
    fine = KPTask("f", (Triple(T, "award", (A,)), Triple(A, "founded", (e("Y1969"),))))
    assert circular_variable(graph_ops, fine) is None


def test_seeds_on_ingested_tables_name_their_table(
    clean_db: neo4j.Driver, database: str | None
) -> None:
    """On the default data (tables and pages), seeds walk table facts first: every fact triple
    is tied to a table the web serves and named in the question; no two seeds share an answer
    set; a relation name from any header executes."""
    from tests.conftest import run_pipeline

    run_pipeline(["ingest", "relations"], clean_db, database)
    report = make_seeds(clean_db, database, ShaperConfig(n_seeds=40, seed=3))
    assert report.kept > 0
    assert "malformed" not in report.reasons
    seeds = [t for t in load_tasks(clean_db, database) if t.source == "seed"]
    with_facts = [t for t in seeds if any("@" in tr.relation for tr in t.triples)]
    assert len(with_facts) >= len(seeds) // 2
    for task in with_facts:
        assert "Wikipedia table" in task.question
    assert len({tuple(t.answer_refs) for t in seeds}) == len(seeds)


def default_pages_graph() -> KGraph:
    graph = KGraph()
    for line in (DEFAULT_DATA / "pages.jsonl").read_text().splitlines():
        page = json.loads(line)
        graph.names[page["id"]] = page["title"]
        graph.links |= {(page["id"], t) for t in page.get("out_links", [])}
    return graph


def test_seeds_and_expansion_on_the_default_pages(
    clean_db: neo4j.Driver, database: str | None
) -> None:
    graph = default_pages_graph()
    merge_kgraph(clean_db, graph, database)
    seeds = make_seeds(clean_db, database, ShaperConfig(n_seeds=12, seed=1))
    assert seeds.kept > 0
    assert set(seeds.reasons) <= {
        "dead_end",
        "too_large",
        "redundant",
        "constant_is_answer",
        "duplicate",
        "empty",
        "names_answer",
        "missing_constant",
        "same_answer",
        "circular",
        "no_kind",
    }
    report = expand_tasks(clean_db, database, EXPAND)
    by_reason = report.notes["rejected_by_reason"]
    assert isinstance(by_reason, dict)
    assert report.notes["attempted"] == report.kept + sum(by_reason.values())
    assert report.notes["accepted"] == report.kept
    tasks = {t.task_id: t for t in load_tasks(clean_db, database)}
    expanded = [t for t in tasks.values() if t.source == "expanded"]
    assert report.kept == len(expanded) > 0
    for task in expanded:
        parent = tasks[task.parent_id or ""]
        # Consistency on the Python oracle too, and the answer is what the graph says.
        assert evaluate(task, graph) == evaluate(parent, graph) == set(task.answer_refs)
        assert find_redundant(task, set(task.answer_refs), lambda t: evaluate(t, graph)) is None
        assert len(task.triples) > len(parent.triples)
        assert check_question(task.question, task.constants(), task.answer) is None
    # Idempotent and resumable: a second run does nothing new.
    again_seeds = make_seeds(clean_db, database, ShaperConfig(n_seeds=12, seed=1))
    again = expand_tasks(clean_db, database, EXPAND)
    assert again_seeds.kept == 0 and again.kept == 0
    assert len(load_tasks(clean_db, database)) == len(tasks)
    leaves = cypher.read(
        clean_db, "shaper/find_leaf_constants", database=database, task_id=expanded[0].task_id
    )
    assert leaves and all(row["ref"] for row in leaves)


def test_repo_default_pages_exist() -> None:
    assert (DEFAULT_DATA / "pages.jsonl").is_file()


def test_a_walk_joins_only_on_entities_with_pages() -> None:
    """Hops join on things: never out of a Value (a number, a year: a first-leg score equal to
    another tie's aggregate is a coincidence) nor out of an unlinked mention."""
    from seekgraph.synth.shaper.ops import Neighbour
    from seekgraph.synth.shaper.seeds import walkable

    forty = Neighbour("points_scored@fiba", "number:40", "Value", "40")
    out_of_forty = [
        Neighbour("~points_scored@fiba", "/wiki/Corinthians", "Entity", "Corinthians"),
        Neighbour("~best_score@dancing_stars", "/wiki/Dancer", "Entity", "Dancer"),
        Neighbour("~g@fiba", "/wiki/Other", "Entity", "Other"),
    ]
    assert walkable(out_of_forty, via=forty) == []
    mention = Neighbour("coach@fiba", "unlinked:j smith", "Entity", "J. Smith")
    assert walkable(out_of_forty, via=mention) == []
    uk = Neighbour("country@booker", "/wiki/UK", "Entity", "UK")
    assert walkable(out_of_forty, via=uk) == out_of_forty[:2]  # one-letter relations never


def test_a_kind_that_repeats_a_clue_gives_way(clean_db: neo4j.Driver, database: str | None) -> None:
    """Sample 2070: "Which outfielder ... with position "Outfielder" and with the same school
    as ..." says the clue twice. A kind read from the answers' pages that is one of the
    variable's own clues gives way (to "person" when the column names no kind)."""
    from seekgraph.synth.shaper.seeds import variable_kinds

    graph = KGraph(
        facts={
            ("/wiki/Terry_Francona", "position", "/wiki/Outfielder"),
            ("/wiki/Terry_Francona", "school", "/wiki/Arizona"),
            ("/wiki/Kendall_Carter", "school", "/wiki/Arizona"),
        }
    )
    merge_kgraph(clean_db, graph, database)
    clean_db.execute_query(
        "MERGE (p:Page {page_id: 'p:francona'}) SET p.text = $text "
        "WITH p MATCH (e:Entity {entity_id: '/wiki/Terry_Francona'}) MERGE (p)-[:ABOUT]->(e)",
        text="Terry Francona is an American former outfielder and baseball manager.",
        database_=database,
    )
    ops = GraphOps(clean_db, database)
    outfielder = Const("Outfielder", "/wiki/Outfielder", "Entity")
    task = KPTask(
        "k",
        (
            Triple(T, "position", (outfielder,)),
            Triple(T, "school", (A,)),
            Triple(A, "~school", (e("Kendall_Carter"),)),
        ),
    )
    kinds = variable_kinds(ops, task, {"/wiki/Terry_Francona"})
    assert kinds[T] == ("person", "people")
    plain = KPTask("p", (Triple(T, "school", (A,)), Triple(A, "~school", (e("Kendall_Carter"),))))
    assert variable_kinds(ops, plain, {"/wiki/Terry_Francona"})[T] == ("outfielder", "outfielders")
