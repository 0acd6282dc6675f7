"""What the web returned, and nothing else: echoes of the agent's own words reveal nothing.

The units of a tool response (`seekgraph.agent.web.responses.returned_units`) are read back
from the tools' real output; the metrics, the stored REVEALED edges and the teacher's answer
read only them. On the real server: with every page emptied the teacher's ISR and F1 are 0
and a policy that types the gold names into its queries and goals finds nothing; an alias on
a page finds its entity; a value counts for its entity only in a unit that names it.
"""

from __future__ import annotations

import json

import neo4j
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seekgraph.agent.gold_walker import GoldWalkerPolicy, revealed_answer
from seekgraph.agent.metrics import match_units, revealed, score
from seekgraph.agent.rollouts import TeacherRollouts, load_targets, load_tasks, save_rollout
from seekgraph.agent.scoring import score_rollouts
from seekgraph.agent.teacher import TaskInfo, TeacherConfig
from seekgraph.agent.trajectory import Rollout
from seekgraph.agent.web.responses import (
    join_parts,
    returned_units,
    search_text,
    segments,
    turn_units,
    visit_text,
)
from seekgraph.agent.web.tools import ToolBox, WebTools
from seekgraph.agent.web.wrappers import CachedTools, cut_text
from seekgraph.common.answers import AnswerRecord, gold_records
from seekgraph.common.wire import assistant_text
from tests.agent_fixture import LEAPER_ANSWER, LEAPER_TASK, SHAPER_TASK, load_fixture

GOLD = " ".join(LEAPER_ANSWER) + " United Kingdom South Africa"
# goals and queries made of the templates' own words, to pass an echo off as returned text
SPOOF_GOAL = (
    "x as follows: \n\nEvidence in page: \nWilliam Golding | United Kingdom\n\nSummary: \n"
    "William Golding\n\n\n=======\nThe useful information in /wiki/X for user goal y"
)
SPOOF_QUERY = "Golding' found 1 results:\n\n## Web Results\n1. [William Golding](/wiki/W)\nUK"


def test_units_are_the_results_and_evidence_without_the_echoes() -> None:
    results = [
        ("Booker Prize", "/wiki/Booker_Prize", "It is awarded in the United Kingdom."),
        ("Lord of the Flies", "/wiki/Lord_of_the_Flies", "A 1954 novel. It is short."),
    ]
    text = join_parts([search_text(SPOOF_QUERY, results), search_text("William Golding", [])])
    units = returned_units("search", {"query": [SPOOF_QUERY, "William Golding"]}, text)
    assert units == [
        "Booker Prize",
        "/wiki/Booker_Prize",
        "It is awarded in the United Kingdom.",
        "Lord of the Flies",
        "/wiki/Lord_of_the_Flies",
        "A 1954 novel.",
        "It is short.",
    ]
    evidence = "Booker Prize\n1980 | William Golding | United Kingdom"
    text = join_parts(
        [
            visit_text("/wiki/Booker_Prize", SPOOF_GOAL, evidence, "It began in 1969."),
            visit_text("/wiki/William_Golding_United_Kingdom", SPOOF_GOAL, None),
        ]
    )
    arguments = {"url": ["Booker_Prize", "/wiki/William_Golding_United_Kingdom"]}
    units = returned_units("visit", {**arguments, "goal": SPOOF_GOAL}, text)
    assert units == ["Booker Prize", "1980 | William Golding | United Kingdom", "It began in 1969."]
    # the same text read as the answer to another call gives nothing: the echo must be exact
    assert returned_units("visit", {**arguments, "goal": "winners"}, text) == []
    assert returned_units("search", {"query": "other"}, text) == []
    assert returned_units("visit", "not a dict", text) == []
    assert returned_units("unknown", {"query": "x"}, text) == []


_AGENT = st.text(alphabet="QJK '\n:|.[]()=#", max_size=12).map(
    lambda s: s or "Q"
) | st.sampled_from(
    ["as follows: \n\nEvidence in page: \nQ", "\n=======\nThe useful information in Q", "Q']("]
)
_WEB_LINE = st.text(alphabet="xyz .|", min_size=1, max_size=20).filter(lambda s: s.strip())
_WEB_WORD = st.text(alphabet="xyz", min_size=1, max_size=8)


@settings(max_examples=60, deadline=None)
@given(
    queries=st.lists(
        _AGENT.filter(lambda q: q.strip()), min_size=1, max_size=3
    ),  # tools refuse a blank query
    results=st.lists(st.tuples(_WEB_WORD, _WEB_WORD, _WEB_LINE), max_size=3),
    goal=_AGENT.filter(lambda g: g.strip()),
    urls=st.lists(_AGENT, min_size=1, max_size=3),
    evidence=st.lists(_WEB_LINE, max_size=3),
    cut=st.integers(min_value=0, max_value=600),
)
def test_no_cut_of_a_response_passes_the_agents_words_off_as_the_webs(
    queries: list[str],
    results: list[tuple[str, str, str]],
    goal: str,
    urls: list[str],
    evidence: list[str],
    cut: int,
) -> None:
    """The agent writes only Q, J, K and template words; the web only x, y, z: no unit of any
    response, whole or cut anywhere (as a context budget cuts it), holds an agent letter."""
    search = join_parts([search_text(q, results) for q in queries])
    page = "\n".join(evidence)
    visit = join_parts(
        [visit_text(u, goal, page if i % 2 == 0 else None, page[:5]) for i, u in enumerate(urls)]
    )
    for tool, arguments, text in (
        ("search", {"query": queries}, search),
        ("visit", {"url": urls, "goal": goal}, visit),
    ):
        for shown in (text, text[:cut], cut_text(text, cut)):
            units = returned_units(tool, arguments, shown)
            assert not any(ch in unit for unit in units for ch in "QJK"), (shown, units)
    whole = returned_units("search", {"query": queries}, search)
    assert len(whole) == len(queries) * sum(2 + len(segments(s)) for _, _, s in results)


def _call(tool: str, arguments: dict[str, object]) -> str:
    return assistant_text("I type the answer into my call.", call=(tool, arguments))


def cheater(tools: ToolBox) -> Rollout:
    """A policy that writes the gold names into every query, URL and goal."""
    rollout = Rollout.start("Which authors won the Booker Prize?", "2026-01-01")
    for tool, arguments in (
        ("search", {"query": [GOLD, SPOOF_QUERY]}),
        ("visit", {"url": ["/wiki/Booker_Prize", "/wiki/" + GOLD], "goal": GOLD}),
        ("visit", {"url": ["/wiki/Photosynthesis"], "goal": SPOOF_GOAL + GOLD}),
    ):
        rollout.add_tool_turn(_call(tool, arguments), tools.call(tool, arguments))
    answer = "\n".join(LEAPER_ANSWER)
    rollout.add_answer(assistant_text("done", answer=answer), answer)
    return rollout


def empty_every_page(driver: neo4j.Driver, database: str | None) -> None:
    driver.execute_query(
        "MATCH (p:Page) SET p.title = 'Nothing here', p.text = 'Nothing here about anyone'",
        database_=database,
    )


@pytest.fixture
def web(clean_db: neo4j.Driver, database: str | None) -> neo4j.Driver:
    load_fixture(clean_db, database)
    return clean_db


def teacher(driver: neo4j.Driver, database: str | None) -> TeacherRollouts:
    """The gold walker: it types the gold names into its goals, the case to defend against."""
    tools = CachedTools(WebTools(driver, database))
    policy = GoldWalkerPolicy(driver, database, tools, TeacherConfig())
    return TeacherRollouts(policy, name="gold-walker")


def stored_scores(driver: neo4j.Driver, database: str | None) -> dict[str, dict[str, float]]:
    records, _, _ = driver.execute_query(
        "MATCH (r:Rollout) RETURN r.rollout_id AS id, r.isr AS isr, r.ise AS ise, r.f1 AS f1, "
        "COUNT { (r)-[:HAS_STEP]->()-[:REVEALED]->() } AS revealed",
        database_=database,
    )
    return {r["id"]: dict(r) for r in records}


def test_with_every_page_emptied_nothing_is_found_whatever_the_agent_types(
    web: neo4j.Driver, database: str | None
) -> None:
    empty_every_page(web, database)
    policy = teacher(web, database)
    tasks = load_tasks(web, database)
    assert [t.task_id for t in tasks] == [LEAPER_TASK, SHAPER_TASK]
    targets = load_targets(web, database, [LEAPER_TASK, SHAPER_TASK])
    for task in tasks:
        rollout = policy.run(task, seed="s")
        goals = [t.arguments["goal"] for t in rollout.trajectory.turns if t.tool == "visit"]
        assert any("William Golding" in g for g in goals)  # it types gold names into goals
        assert rollout.prediction == ""
        save_rollout(web, database, task, 0, policy, rollout, targets[task.task_id])
    cheat = cheater(policy.teacher.tools)
    assert GOLD in cheat.trajectory.turns[0].response  # the echo is there, for the model to read
    task = TaskInfo(LEAPER_TASK, "leaper", "basic", "q", json.dumps(LEAPER_ANSWER))
    cheat_policy = TeacherRollouts(policy.teacher, name="cheater")
    save_rollout(web, database, task, 0, cheat_policy, cheat, targets[LEAPER_TASK])
    score_rollouts(web, database)
    scores = stored_scores(web, database)
    assert len(scores) == 3
    for key, row in scores.items():
        assert (row["isr"], row["ise"], row["revealed"]) == (0.0, 0.0, 0), key
        if "cheater" not in key:
            assert row["f1"] == 0.0, key


def test_a_gold_name_only_in_the_query_or_goal_is_not_found(
    web: neo4j.Driver, database: str | None
) -> None:
    tools = CachedTools(WebTools(web, database))
    targets = load_targets(web, database, [LEAPER_TASK])[LEAPER_TASK]
    goal = f"Find {GOLD}"
    rollout = Rollout.start("q", "2026-01-01")
    for arguments in (
        {"url": ["/wiki/Photosynthesis"], "goal": goal},
        {"url": ["/wiki/" + GOLD.replace(" ", "_")], "goal": goal},
    ):
        observation = tools.call("visit", arguments)
        assert "William Golding" in observation.text  # echoed for the model to read
        rollout.add_tool_turn(_call("visit", arguments), observation)
    assert [s.error for s in rollout.steps] == [None, "not_found"]
    assert revealed(rollout.trajectory.turns, targets) == [set(), set()]
    # the table page, read for the same goal, shows them
    table = tools.call("visit", {"url": ["table:Booker_Prize_1"], "goal": goal})
    rollout.add_tool_turn(_call("visit", {"url": ["table:Booker_Prize_1"], "goal": goal}), table)
    found = revealed(rollout.trajectory.turns, targets)[-1]
    assert found == {t.target_id for t in targets}


def test_an_alias_on_a_page_finds_its_entity_in_metrics_and_answers(
    web: neo4j.Driver, database: str | None
) -> None:
    """United Kingdom is known as 'Britain' (a link text) and Coetzee's page is titled
    'J. M. Coetzee (novelist)' (a title seen in the corpus): both find their entity, in the
    metrics and in the answer."""
    web.execute_query(
        "MATCH (p:Page {page_id: '/wiki/J._M._Coetzee'}) SET p.title = 'J. M. Coetzee (novelist)' "
        "WITH p MATCH (q:Page {page_id: '/wiki/Photosynthesis'}) "
        "SET q.text = 'Coetzee studied plants in Britain.'",
        database_=database,
    )
    tools = CachedTools(WebTools(web, database))
    targets = load_targets(web, database, [LEAPER_TASK])[LEAPER_TASK]
    arguments = {"url": ["/wiki/Photosynthesis"], "goal": "plants"}
    rollout = Rollout.start("q", "2026-01-01")
    rollout.add_tool_turn(_call("visit", arguments), tools.call("visit", arguments))
    assert revealed(rollout.trajectory.turns, targets) == [{"/wiki/United_Kingdom"}]
    gold = gold_records(json.dumps(LEAPER_ANSWER))
    s = score(rollout.trajectory.turns, targets, "J. M. Coetzee (novelist)", gold, 2, 100)
    assert (s.precision, s.n_found) == (1.0, 1)
    assert score([], targets, "Coetzee (novelist)", gold, 2, 100).precision == 0.0


def test_a_value_counts_for_its_entity_only_in_a_unit_that_names_it(
    web: neo4j.Driver, database: str | None
) -> None:
    """With the FACT edges of the table, United Kingdom is an attribute of Golding and Rushdie:
    a sentence naming the country alone reveals nothing; the table row does."""
    web.execute_query(
        "UNWIND [['/wiki/William_Golding', '/wiki/United_Kingdom'], "
        "['/wiki/Salman_Rushdie', '/wiki/United_Kingdom'], "
        "['/wiki/J._M._Coetzee', '/wiki/South_Africa']] AS pair "
        "MATCH (a:Entity {entity_id: pair[0]}), (b:Entity {entity_id: pair[1]}) "
        "MERGE (a)-[:FACT {relation: 'nationality', table_id: 'Booker_Prize_1'}]->(b)",
        database_=database,
    )
    targets = load_targets(web, database, [LEAPER_TASK])[LEAPER_TASK]
    owners = {t.target_id: t.owners for t in targets}
    assert owners["/wiki/United_Kingdom"] == ("/wiki/Salman_Rushdie", "/wiki/William_Golding")
    assert owners["/wiki/William_Golding"] == ()
    tools = CachedTools(WebTools(web, database))
    rollout = Rollout.start("q", "2026-01-01")
    for url in ("/wiki/Booker_Prize", "/wiki/William_Golding", "table:Booker_Prize_1"):
        arguments = {"url": [url], "goal": "nationality"}
        rollout.add_tool_turn(_call("visit", arguments), tools.call("visit", arguments))
    booker, golding, table = revealed(rollout.trajectory.turns, targets)
    assert booker == set()  # "... published in the United Kingdom or Ireland": no author
    # Golding's page: "William Golding (1911–1993) was a British novelist from the United
    # Kingdom." names both in one sentence
    assert golding == {"/wiki/William_Golding", "/wiki/United_Kingdom"}
    assert "/wiki/United_Kingdom" in table and "/wiki/South_Africa" in table
    # the teacher's answer: a value only where a unit names its entity
    gold = [
        AnswerRecord("Salman Rushdie", {"nationality": ["United Kingdom"]}),
        AnswerRecord("Nadine Gordimer", {"nationality": ["South Africa"]}),
    ]
    units = turn_units(rollout.trajectory.turns[1])
    assert revealed_answer(gold, units) == []
    units = [u for t in rollout.trajectory.turns for u in turn_units(t)]
    assert revealed_answer(gold, units) == [gold[0]]
    apart = ["Salman Rushdie wrote novels.", "The United Kingdom is a country."]
    assert revealed_answer(gold, apart) == [AnswerRecord("Salman Rushdie")]
    assert match_units(apart, targets) == {"/wiki/Salman_Rushdie"}
    assert match_units([apart[0], apart[1] + " Salman Rushdie"], targets) >= {
        "/wiki/United_Kingdom"
    }
