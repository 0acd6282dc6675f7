"""Compiled KP tasks return exactly what the plain Python evaluator returns (hypothesis)."""

from __future__ import annotations

import itertools

import neo4j
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from seekgraph.synth.shaper.compile import compile_task, execute
from seekgraph.synth.shaper.evaluate import KGraph, evaluate
from seekgraph.synth.shaper.kp import Const, KPTask, ShaperError, Triple, Var
from tests.conftest import wipe
from tests.scaffolding.kgraph import merge_kgraph

ENTITIES = [f"/wiki/E{i}" for i in range(6)]
VALUES = ["text:v0", "text:v1"]
RELATIONS = ["r0", "~r0", "r1", "~r1", "links_to", "linked_from", "r0@ta", "~r1@tb", "r1@ta"]


@st.composite
def graphs(draw: st.DrawFn) -> KGraph:
    facts = draw(
        st.sets(
            st.tuples(
                st.sampled_from(ENTITIES),
                st.sampled_from(["r0", "r1"]),
                st.sampled_from(ENTITIES + VALUES),
            ),
            max_size=14,
        )
    )
    table_facts = draw(
        st.sets(
            st.tuples(
                st.sampled_from(ENTITIES),
                st.sampled_from(["r0", "r1"]),
                st.sampled_from(ENTITIES + VALUES),
                st.sampled_from(["ta", "tb"]),
            ),
            max_size=10,
        )
    )
    links = draw(
        st.sets(st.tuples(st.sampled_from(ENTITIES), st.sampled_from(ENTITIES)), max_size=10)
    )
    names = {ref: ref.rsplit("/", 1)[-1] for ref in ENTITIES + VALUES}
    return KGraph(
        facts=facts, table_facts=table_facts, links=links, names=names, values=set(VALUES)
    )


def const(ref: str) -> Const:
    return Const(ref, ref, "Value" if ref in VALUES else "Entity")


@st.composite
def tasks(draw: st.DrawFn) -> KPTask:
    variables = [Var("?"), Var("V@A"), Var("V@B")]
    n = draw(st.integers(1, 4))
    triples = []
    for i in range(n):
        subject = variables[0] if i == 0 else draw(st.sampled_from(variables))
        if draw(st.booleans()):
            obj: tuple[Var | Const, ...] = (draw(st.sampled_from(variables)),)
        else:
            refs = draw(
                st.lists(st.sampled_from(ENTITIES + VALUES), min_size=1, max_size=2, unique=True)
            )
            obj = tuple(const(r) for r in refs)
        triples.append(Triple(subject, draw(st.sampled_from(RELATIONS)), obj))
    return KPTask("prop", tuple(triples))


@pytest.mark.filterwarnings("ignore")
@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(graph=graphs(), task=tasks())
def test_compiled_query_equals_python_evaluator(
    driver: neo4j.Driver, database: str | None, graph: KGraph, task: KPTask
) -> None:
    wipe(driver, database)
    merge_kgraph(driver, graph, database)
    assert set(execute(driver, task, database)) == evaluate(task, graph)


def test_union_intersection_and_chain_on_a_known_graph(
    clean_db: neo4j.Driver, database: str | None
) -> None:
    g = KGraph(
        facts={
            ("/wiki/Ishiguro", "nationality", "/wiki/UK"),
            ("/wiki/Byatt", "nationality", "/wiki/UK"),
            ("/wiki/Grossman", "nationality", "/wiki/Israel"),
            ("/wiki/Ishiguro", "award", "/wiki/Booker"),
            ("/wiki/Byatt", "award", "/wiki/Booker"),
            ("/wiki/Booker", "founded", "text:1969"),
        },
        links={("/wiki/Byatt", "/wiki/Possession")},
        values={"text:1969"},
        names={"/wiki/Byatt": "A. S. Byatt", "text:1969": "1969"},
    )
    merge_kgraph(clean_db, g, database)
    uk, isr = const("/wiki/UK"), const("/wiki/Israel")
    union = KPTask("u", (Triple(Var("?"), "nationality", (uk, isr)),))
    assert set(execute(clean_db, union, database)) == {
        "/wiki/Ishiguro",
        "/wiki/Byatt",
        "/wiki/Grossman",
    }
    chain = KPTask(
        "c",
        (
            Triple(Var("?"), "award", (Var("V@A"),)),
            Triple(Var("V@A"), "founded", (Const("1969", "text:1969", "Value"),)),
            Triple(Var("?"), "links_to", (const("/wiki/Possession"),)),
        ),
    )
    assert execute(clean_db, chain, database) == {"/wiki/Byatt": "A. S. Byatt"}
    assert evaluate(chain, g) == {"/wiki/Byatt"}
    inverse = KPTask("i", (Triple(Var("?"), "~nationality", (const("/wiki/Grossman"),)),))
    assert set(execute(clean_db, inverse, database)) == {"/wiki/Israel"}


def test_malformed_tasks_are_typed_errors() -> None:
    with pytest.raises(ShaperError, match="target"):
        compile_task(KPTask("x", (Triple(Var("V@A"), "r", (const("/wiki/E0"),)),)))
    with pytest.raises(ShaperError, match="not executable"):
        compile_task(KPTask("x", (Triple(Var("?"), "is located in", (const("/wiki/E0"),)),)))
    for header_relation in ("2012_population_rank", "~première_date", "rank@Table_(2010)"):
        compile_task(KPTask("x", (Triple(Var("?"), header_relation, (const("/wiki/E0"),)),)))
    with pytest.raises(ShaperError, match="not resolved"):
        compile_task(KPTask("x", (Triple(Var("?"), "r", (Const("Berlin"),)),)))
    with pytest.raises(ShaperError, match="R-union"):
        compile_task(KPTask("x", (Triple(Var("?"), "r", (Var("V@A"), const("/wiki/E0"))),)))


def brute_force(task: KPTask, graph: KGraph) -> set[str]:
    """Every assignment of every variable to every node, checked triple by triple."""
    variables = task.variables()
    answers = set()
    for combo in itertools.product(ENTITIES + VALUES, repeat=len(variables)):
        binding = dict(zip(variables, combo, strict=True))

        def value(term: Var | Const, b: dict[Var, str] = binding) -> str | None:
            return b[term] if isinstance(term, Var) else term.ref

        if all(
            any((value(t.subject), value(o)) in graph.pairs(t.relation) for o in t.objects)
            for t in task.triples
        ):
            answers.add(binding[Var("?")])
    return answers


@settings(max_examples=60, deadline=None)
@given(graph=graphs(), task=tasks())
def test_python_evaluator_equals_brute_force(graph: KGraph, task: KPTask) -> None:
    assert evaluate(task, graph) == brute_force(task, graph)
