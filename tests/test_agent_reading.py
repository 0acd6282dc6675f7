"""What the question-only teacher reads: questions as the task stages write them, and tool
responses as the real tools return them (whole or cut)."""

from __future__ import annotations

import neo4j
import pytest

from seekgraph.agent.questions import TableName, Term, parse_question
from seekgraph.agent.reading import Table, parse_search, parse_table, parse_visit, value_key
from seekgraph.agent.web.tools import WebTools
from seekgraph.agent.web.wrappers import cut_text
from seekgraph.synth.leaper.questions import basic_question, reverse_question, union_question
from seekgraph.synth.phrasing.tables import TableRef
from tests.agent_fixture import TABLE_ID, load_fixture


@pytest.fixture
def web(clean_db: neo4j.Driver, database: str | None) -> neo4j.Driver:
    load_fixture(clean_db, database)
    return clean_db


def test_questions_of_every_template_are_read_back() -> None:
    booker, nobel = TableRef("Booker Prize", "Winners"), TableRef("Nobel laureates", "Laureates")
    basic = parse_question(basic_question(booker, "authors", ["country", "year"], {}))
    assert (basic.kind, basic.tables[0].query, basic.nouns) == (
        "list",
        "Booker Prize Winners",
        ("authors",),
    )
    assert basic.attributes == ("country", "year")
    # a cut table, a selection, a table of several kinds: every Basic form the synthesis writes
    cut, notable = (
        TableRef("2004 NFL Draft", "Round 1", 20),
        TableRef("X", "Notable", selection=True),
    )
    for question, noun, table in (
        (basic_question(cut, "players", ["team"], {}), "players", cut),
        (basic_question(cut, "entries", ["team"], {}), "things", cut),
        (basic_question(notable, "people", ["year"], {}), "people", notable),
        (basic_question(notable, "entries", [], {}), "things", notable),
    ):
        plan = parse_question(question)
        assert plan.kind == "list" and plan.nouns == (noun,), question
        assert plan.tables == (TableName(table.title, table.section),), question
    # a winners table beside its runners-up: the role says which column lists the answers
    paulista = TableRef("Campeonato Paulista", "Série A2")
    winners = parse_question(basic_question(paulista, "teams", [], {}, role="winners"))
    assert (winners.kind, winners.nouns, winners.role) == ("list", ("teams",), "winners")
    table = Table(("Season", "Runner-up", "Winner"), (("2009", "Barueri", "Ponte Preta"),))
    assert (table.named_column("winners"), table.named_column("albums")) == (2, None)
    marked = parse_question(union_question([cut, notable], ["players", "people"], ["year"], {}))
    assert marked.tables == (TableName("2004 NFL Draft", "Round 1"), TableName("X", "Notable"))
    union = parse_question(union_question([booker, nobel], ["authors", "laureates"], ["year"], {}))
    assert union.kind == "union" and union.nouns == ("authors", "laureates")
    assert [t.title for t in union.tables] == ["Booker Prize", "Nobel laureates"]
    same = parse_question(union_question([booker, nobel], ["authors"] * 2, ["year"], {}))
    assert same.kind == "union" and len(same.tables) == 2
    rev = parse_question(
        reverse_question(
            [booker, nobel],
            "author",
            "authors",
            [("title", "The Sea", "text")],
            "country",
            ["year"],
            {},
        )
    )
    assert (rev.kind, rev.clues, rev.pivot, rev.attributes) == (
        "reverse",
        (("title", "The Sea"),),
        "country",
        ("year",),
    )
    kp = parse_question(
        'Which novels are listed in the Wikipedia table "Booker Prize" (section "Winners") with '
        'a country that is the country of "Jon Fosse" in the Wikipedia table "Nobel laureates" '
        'and have a Wikipedia article that links to the article on "Europe"?'
    )
    assert kp.kind == "kp" and [c.kind for c in kp.clauses] == ["row", "row", "link"]
    assert kp.clauses[0].key == (Term("Jon Fosse", False),) and kp.clauses[0].cells == (
        Term("A", True),
    )
    assert kp.tables == (TableName("Nobel laureates"), TableName("Booker Prize", "Winners"))
    assert parse_question("What is the capital of France?").kind == "unknown"


def test_search_and_visit_responses_parse_as_the_agent_sees_them(web, database) -> None:
    tools = WebTools(web, database)
    hits = parse_search(tools.call("search", {"query": ["Booker Prize", "Photosynthesis"]}).text)
    assert ("Booker Prize", "table:" + TABLE_ID) in {(h.title, h.url) for h in hits}
    assert {h.query for h in hits} == {"Booker Prize", "Photosynthesis"}
    text = tools.call("visit", {"url": ["table:" + TABLE_ID], "goal": "winners"}).text
    page = parse_visit(text)[0]
    table = parse_table(page.lines)
    assert page.url == "table:" + TABLE_ID and not page.cut and table is not None
    author = table.key_column("authors")
    assert "Salman Rushdie" in {r[author] for r in table.rows}
    short = parse_visit(cut_text(text, text.index("1981 |") + 10))[0]  # cut in the 2nd row
    assert short.cut and parse_table(short.lines) == Table(table.header, table.rows[:1])
    gone = parse_visit(tools.call("visit", {"url": ["/wiki/Nowhere"], "goal": "x"}).text)
    assert gone[0].lines == ()


def test_values_match_as_a_reader_matches_them() -> None:
    assert value_key("Bulgarian language") == value_key("Bulgarian")
    assert value_key("Republic of Ireland") == value_key("Ireland")
    assert value_key("English (de facto)") == value_key("English")
    assert value_key("South Africa") != value_key("Africa")


def test_a_result_without_the_table_is_a_recorded_wrong_hit(web, database) -> None:
    from seekgraph.agent.teacher import TaskInfo, TeacherPolicy

    question = (
        'Which authors are listed in the Wikipedia table "Booker Prize" (section "Winners '
        '(selection)")? For each, give their nationality and their year.'
    )
    task = TaskInfo("t", "", "", question, None)
    teacher = TeacherPolicy(WebTools(web, database))
    found = teacher.run(task, "s")
    assert found.prediction.splitlines() == [
        "William Golding | nationality: United Kingdom | year: 1980",
        "Salman Rushdie | nationality: United Kingdom | year: 1981",
        "J. M. Coetzee | nationality: South Africa | year: 1983",
    ]
    assert found.detours == []
    web.execute_query("MATCH (p:Page {page_id: $p}) DETACH DELETE p", p="table:" + TABLE_ID)
    lost = teacher.run(task, "s")
    kinds = [d["kind"] for d in lost.detours]
    assert "wrong_hit" in kinds and lost.prediction == ""  # the article page has no rows
    visits = [t.arguments["url"] for t in lost.trajectory.turns if t.tool == "visit"]
    assert visits and all(url == ["/wiki/Booker_Prize"] for url in visits)
