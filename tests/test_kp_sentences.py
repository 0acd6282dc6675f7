"""KP questions read as English sentences, and a reader takes exactly the task back out of them.

The renderer (`seekgraph.synth.shaper.questions.render`) and the reader
(`seekgraph.agent.kp_reading.read_kp`) are checked against each other on random tree-shaped
tasks (the shapes seeds and layer-wise expansion build): the clauses read back equal the
task's triples up to the names of the unknowns.
"""

from __future__ import annotations

import itertools
import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from seekgraph.agent.kp_reading import read_kp
from seekgraph.agent.question_parts import Clause, TableName, Term
from seekgraph.agent.questions import parse_question
from seekgraph.synth.phrasing.tables import TableRef
from seekgraph.synth.phrasing.words import relation_words
from seekgraph.synth.shaper.kp import TARGET, Const, KPTask, Triple, Var, parse_relation
from seekgraph.synth.shaper.questions import check_question, render

TABLES = {
    "booker": TableRef("Booker Prize", "Winners (selection)"),
    "nobel": TableRef("List of Nobel laureates in Literature"),
    "states": TableRef("List of sovereign states", "Selected countries"),
    "states2": TableRef("List of sovereign states", "Other states"),
    "draft": TableRef("2004 NFL Draft", "Round 1", 20),
}
RELATIONS = [
    "country",
    "author",
    "official_language",
    "year_of_birth",
    "played_in",
    "club_of_origin",
    "a",
]
CONSTANTS = [
    "Norway",
    "St. Louis",
    "Lord of the Flies",
    "Is and Has",
    "1974",
    "War and Peace",
    "in the same row",
    "A. S. Byatt",
]
# what questions call some relations: their headers, as `phrasing.headers.label` gives them
LABELS = {
    "year_of_birth@nobel": "year of birth",
    "played_in@booker": "capacity in MW",
    "club_of_origin@states": "U.S state/district",
    "official_language@draft": "no. of titles",
    "country@states2": "co-host",
}
KINDS = {TARGET: ("novel", "novels"), "V@A": ("writer", "writers"), "V@B": ("country", "countries")}


def _expected(task: KPTask) -> set[tuple[str, tuple[str, ...], str, tuple[str, ...], str]]:
    """The clauses a reader should take out of `task`, as comparable tuples."""

    def name(term: object) -> str:
        if isinstance(term, Var):
            return "answer" if term.is_target else term.name
        assert isinstance(term, Const)
        return "=" + term.text

    out = set()
    for t in task.triples:
        spec = parse_relation(t.relation)
        subject, objects = (name(t.subject),), tuple(name(o) for o in t.objects)
        key, cells = (objects, subject) if spec.inverse else (subject, objects)
        if spec.kind == "link":
            out.add(("link", key, "links to", cells, ""))
            continue
        ref = TABLES.get(spec.table)
        where = ""
        if ref is not None:
            m = re.match(r'"([^"]+)"(?: \(section "([^"]+)"\))?', ref.quoted(marks=False))
            assert m
            where = f"{m.group(1)}|{m.group(2) or ''}"
        words = LABELS.get(f"{spec.name}@{spec.table}") or relation_words(spec.name)
        out.add(("row", key, words, cells, where))
    return out


def _read(
    clauses: tuple[Clause, ...],
) -> list[tuple[str, tuple[str, ...], str, tuple[str, ...], str]]:
    def name(term: Term) -> str:
        return term.text if term.unknown else "=" + term.text

    def where(table: TableName | None) -> str:
        return f"{table.title}|{table.section}" if table else ""

    return [
        (c.kind, tuple(map(name, c.key)), c.relation, tuple(map(name, c.cells)), where(c.table))
        for c in clauses
    ]


def _same_up_to_names(task: KPTask, clauses: tuple[Clause, ...]) -> bool:
    expected = _expected(task)
    read = _read(clauses)
    ours = sorted({n for c in read for n in (*c[1], *c[3]) if n != "answer" and n[0] != "="})
    theirs = sorted(v.name for v in task.variables() if not v.is_target)
    if len(ours) != len(theirs):
        return False
    for perm in itertools.permutations(theirs):
        rename = dict(zip(ours, perm, strict=True))

        def swap(names: tuple[str, ...], rename: dict[str, str] = rename) -> tuple[str, ...]:
            return tuple(rename.get(n, n) for n in names)

        if {(k, swap(a), r, swap(b), w) for k, a, r, b, w in read} == expected:
            return True
    return False


@st.composite
def tree_tasks(draw: st.DrawFn) -> KPTask:
    """A tree-shaped task: the target's triples, each object a constant or a new variable
    defined by one or two triples of its own, at most three levels deep."""
    triples: list[Triple] = []
    names = iter(["V@A", "V@B", "V@C", "V@D", "V@E", "V@F"])
    used: set[str] = set()

    def const() -> Const:
        text = draw(st.sampled_from([c for c in CONSTANTS if c not in used] or ["Zeta"]))
        used.add(text)
        return Const(text, "/wiki/" + text, "Entity")

    def relation() -> str:
        kind = draw(st.sampled_from(["fact", "fact", "inverse", "link", "linked", "plain"]))
        if kind == "link":
            return "links_to"
        if kind == "linked":
            return "linked_from"
        name = draw(st.sampled_from(RELATIONS))
        if kind == "plain":
            return name
        table = draw(st.sampled_from(sorted(TABLES)))
        return ("~" if kind == "inverse" else "") + f"{name}@{table}"

    def define(subject: Var, depth: int, n: int) -> None:
        for _ in range(n):
            rel = relation()
            if depth < 3 and draw(st.booleans()):
                var = Var(next(names, "V@Z"))
                if var.name == "V@Z":
                    triples.append(Triple(subject, rel, (const(),)))
                    continue
                triples.append(Triple(subject, rel, (var,)))
                define(var, depth + 1, draw(st.integers(1, 2)))
            else:
                objects = (const(), const()) if draw(st.integers(0, 5)) == 0 else (const(),)
                triples.append(Triple(subject, rel, objects))

    define(Var(TARGET), 1, draw(st.integers(1, 3)))
    return KPTask("t", tuple(triples))


# found by hypothesis: a noun phrase in place that ends in a table ("… that is the country of
# "Norway" in T2") inside 'the R of the KIND listed in T1 with …' was read as the outer table
_ENDS_IN_ANOTHER_TABLE = KPTask(
    "t",
    (
        Triple(Var(TARGET), "~country@booker", (Var("V@A"),)),
        Triple(Var("V@A"), "country@booker", (Var("V@B"),)),
        Triple(
            Var("V@B"),
            "~country@draft",
            (Const("Norway", "/wiki/Norway", "Entity"), Const("St. Louis", "/wiki/St", "Entity")),
        ),
    ),
)


@settings(max_examples=300, deadline=None)
@given(tree_tasks(), st.integers(1, 3))
@example(_ENDS_IN_ANOTHER_TABLE, 1)
def test_the_reader_takes_every_rendered_task_back(task: KPTask, n_answers: int) -> None:
    kinds = {Var(k): v for k, v in KINDS.items()}
    question = render(task, TABLES, kinds, n_answers, LABELS)
    assert question.endswith("?") and "entity A" not in question and "such that" not in question
    assert check_question(question, task.constants(), ["Nobody"]) is None
    clauses = read_kp(question)
    assert clauses is not None, question
    assert _same_up_to_names(task, clauses), (question, _read(clauses), _expected(task))


def test_a_chain_reads_as_one_question_and_the_plan_is_kp() -> None:
    a = Var("V@A")
    task = KPTask(
        "t",
        (
            Triple(Var(TARGET), "author@booker", (a,)),
            Triple(a, "country@nobel", (Var("V@B"),)),
            Triple(Var("V@B"), "~country@nobel", (Const("Louise Glück"),)),
        ),
    )
    kinds = {Var(TARGET): ("novel", "novels"), a: ("writer", "writers")}
    question = render(task, TABLES, kinds, 2)
    assert question == (
        'Which novels are listed in the Wikipedia table "Booker Prize" (section "Winners '
        '(selection)") with an author listed in the Wikipedia table "List of Nobel laureates '
        'in Literature" with the same country as "Louise Glück"?'
    )
    plan = parse_question(question)
    assert plan.kind == "kp" and len(plan.clauses) == 3
    assert plan.tables == (
        TableName("List of Nobel laureates in Literature"),
        TableName("Booker Prize", "Winners (selection)"),
    )


def test_a_variable_of_several_facts_gets_its_own_sentence() -> None:
    a = Var("V@A")
    task = KPTask(
        "t",
        (
            Triple(Var(TARGET), "author@booker", (a,)),
            Triple(a, "country@nobel", (Const("United States"),)),
            Triple(a, "linked_from", (Const("Pulitzer Prize"),)),
        ),
    )
    kinds = {Var(TARGET): ("novel", "novels"), a: ("writer", "writers")}
    question = render(task, TABLES, kinds, 1)
    assert question.startswith(
        'A writer is listed in the Wikipedia table "List of Nobel laureates in Literature" with '
        'country "United States" and is linked from the Wikipedia article on "Pulitzer Prize". '
        "Which novel is listed in"
    )
    assert question.endswith("with such a writer as its author?")
    assert read_kp("Which novels are good?") is None


def test_one_value_of_a_person_is_asked_with_who() -> None:
    novel = Var("V@A")
    task = KPTask(
        "t",
        (
            Triple(Var(TARGET), "~author@booker", (novel,)),
            Triple(novel, "year@booker", (Const("1999"),)),
        ),
    )
    question = render(task, TABLES, {novel: ("novel", "novels")}, 1)
    assert question == (
        'Who is the author of the novel listed in the Wikipedia table "Booker Prize" (section '
        '"Winners (selection)") with year "1999"?'
    )
    (clause, of) = read_kp(question) or ()
    assert (of.key, of.relation, of.cells) == (
        (Term("A", True),),
        "author",
        (Term("answer", True),),
    )
    assert of.table == clause.table == TableName("Booker Prize", "Winners (selection)")


def test_a_value_shared_with_a_row_of_another_table_reads_as_the_same() -> None:
    # audit 2030: "with a club that is the club of "Guy Campbell" in …" said as a person says it
    a = Var("V@A")
    task = KPTask(
        "t",
        (
            Triple(Var(TARGET), "country@booker", (a,)),
            Triple(a, "~country@nobel", (Const("Louise Glück"),)),
        ),
    )
    question = render(task, TABLES, {Var(TARGET): ("novel", "novels")}, 2)
    assert question == (
        'Which novels are listed in the Wikipedia table "Booker Prize" (section "Winners '
        '(selection)") with the same country as "Louise Glück" in the Wikipedia table "List of '
        'Nobel laureates in Literature"?'
    )
    clauses = read_kp(question)
    assert clauses is not None and _same_up_to_names(task, clauses), _read(clauses or ())


def test_one_thing_is_named_by_a_plural_header_in_the_singular() -> None:
    """A variable that is the value of a plural header ("Director(s)") is one thing: "a
    director that is the director of "Kozara"", not "the directors of" (sample 2079)."""
    kozara = Const("Kozara", "/wiki/Kozara", "Entity")
    task = KPTask(
        "shaper:plural",
        (
            Triple(Var("?"), "director@booker", (Var("V@A"),)),
            Triple(Var("V@A"), "~director@nobel", (kozara,)),
        ),
    )
    kinds = {Var("?"): ("film", "films"), Var("V@A"): ("director", "directors")}
    labels = {"director@booker": "director", "director@nobel": "directors"}
    question = render(task, TABLES, kinds, 1, labels)
    assert 'the director of "Kozara"' in question, question
    assert "the directors of" not in question, question
