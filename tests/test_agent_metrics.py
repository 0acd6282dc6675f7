"""ISR, ISE, P/R/F1, accuracy and F-AE: hand-computed on a fixture trajectory, and the filter."""

from __future__ import annotations

import re
from dataclasses import dataclass

import neo4j
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seekgraph.agent.filtering import FilterConfig, filter_rollouts, verdict
from seekgraph.agent.metrics import Target, fae, match_units, score
from seekgraph.agent.rollouts import load_targets, save_rollout
from seekgraph.agent.scoring import score_rollouts
from seekgraph.agent.teacher import TaskInfo
from seekgraph.agent.trajectory import Rollout
from seekgraph.agent.web.responses import search_text, visit_text
from seekgraph.agent.web.tools import Observation
from seekgraph.common.answers import (
    AnswerRecord,
    atom_prf,
    format_records,
    gold_records,
    parse_records,
)
from seekgraph.common.text import normalize
from seekgraph.common.wire import assistant_text
from tests.agent_fixture import LEAPER_ANSWER, LEAPER_TASK, load_fixture


@dataclass
class FixturePolicy:
    """Names the rollout of a hand-written trajectory (no policy runs here)."""

    name: str = "teacher"
    model: str = "fixture"
    max_rounds: int = 100

    def run(self, task: TaskInfo, seed: str) -> Rollout:
        raise AssertionError("a fixture trajectory is written by hand")


def _call(thought: str, tool: str, arguments: dict[str, object]) -> str:
    return assistant_text(thought, call=(tool, arguments))


def fixture_trajectory() -> Rollout:
    """R = {Golding, Rushdie, Coetzee, United Kingdom, South Africa}.

    step 0 search reveals United Kingdom; step 1 visit reveals Golding and Rushdie;
    step 2 visit reveals nothing; step 3 answers Golding, Rushdie, Gordimer.
    """
    t = Rollout.start("Which authors won the Booker Prize in 1980, 1981 and 1983?", "2026-01-01")
    result = ("Booker Prize", "/wiki/Booker_Prize", "It is awarded in the United Kingdom.")
    t.add_tool_turn(
        _call("search first", "search", {"query": ["Booker Prize"]}),
        Observation(search_text("Booker Prize", [result]), ("/wiki/Booker_Prize",)),
    )
    rows = "1980 | William Golding | Rites of Passage\n1981 | Salman Rushdie | Midnight's Children"
    t.add_tool_turn(
        _call("read the table", "visit", {"url": ["table:Booker_Prize_1"], "goal": "winners"}),
        Observation(visit_text("table:Booker_Prize_1", "winners", rows), ("table:Booker_Prize_1",)),
    )
    energy = "Photosynthesis turns light into energy."
    t.add_tool_turn(
        _call("detour", "visit", {"url": ["/wiki/Photosynthesis"], "goal": "anything"}),
        Observation(visit_text("/wiki/Photosynthesis", "anything", energy, energy), ("p",)),
        detour_kind="irrelevant_visit",
    )
    answer = "William Golding\nSalman Rushdie\nNadine Gordimer"
    t.add_answer(assistant_text("done", answer=answer), answer)
    return t


# Hand-computed: ISR = 3/5; ISE = 2 (visit) / 3 (tool calls); P = R = F1 = 2/3; accuracy 0
# (one answer wrong, one missing: the list is not right); F-AE = 0 (accuracy 0)
EXPECTED = {
    "isr": 0.6,
    "ise": 2 / 3,
    "precision": 2 / 3,
    "recall": 2 / 3,
    "f1": 2 / 3,
    "accuracy": 0.0,
    "fae": 0.0,
}


def test_hand_computed_scores_of_the_fixture_trajectory() -> None:
    targets = [
        Target("/wiki/William_Golding", ("William Golding",)),
        Target("/wiki/Salman_Rushdie", ("Salman Rushdie",)),
        Target("/wiki/J._M._Coetzee", ("J. M. Coetzee",)),
        Target("/wiki/United_Kingdom", ("United Kingdom", "UK")),
        Target("/wiki/South_Africa", ("South Africa",)),
    ]
    t = fixture_trajectory()
    gold = [AnswerRecord(name) for name in LEAPER_ANSWER]
    s = score(t.trajectory.turns, targets, t.prediction, gold, t.rounds, 100)
    for key, value in EXPECTED.items():
        assert getattr(s, key) == pytest.approx(value, abs=1e-6), key
    assert (s.n_targets, s.n_found, s.n_found_visit, s.actions, s.rounds) == (5, 3, 2, 3, 4)


def test_scores_from_the_graph_match_the_hand_computed_values(
    clean_db: neo4j.Driver, database: str | None
) -> None:
    load_fixture(clean_db, database)
    task = TaskInfo(LEAPER_TASK, "leaper", "basic", "q", None)
    targets = load_targets(clean_db, database, [LEAPER_TASK])[LEAPER_TASK]
    assert len(targets) == 5
    rid = save_rollout(clean_db, database, task, 0, FixturePolicy(), fixture_trajectory(), targets)
    report = score_rollouts(clean_db, database)
    assert report.kept == 1
    records, _, _ = clean_db.execute_query(
        "MATCH (r:Rollout {rollout_id: $rid}) RETURN r {.*} AS r", rid=rid, database_=database
    )
    row = records[0]["r"]
    for key, value in EXPECTED.items():
        assert row[key] == pytest.approx(value, abs=1e-6), key
    records, _, _ = clean_db.execute_query(
        "MATCH (:Rollout {rollout_id: $rid})-[:HAS_STEP]->(s:Step) "
        "OPTIONAL MATCH (s)-[:REVEALED]->(x) "
        "RETURN s.index AS i, s.detour_kind <> '' AS d, count(x) AS n ORDER BY i",
        rid=rid,
        database_=database,
    )
    assert [(r["i"], r["d"], r["n"]) for r in records] == [
        (0, False, 1),
        (1, False, 2),
        (2, True, 0),
        (3, False, 0),
    ]
    assert score_rollouts(clean_db, database).kept == 0  # already scored: nothing to do
    assert score_rollouts(clean_db, database, rescore=True).kept == 1
    kept = filter_rollouts(clean_db, database)
    assert (kept.kept, kept.rejected) == (1, 0)
    strict = filter_rollouts(clean_db, database, FilterConfig(alpha=0.7))
    assert strict.reasons == {"isr_below_alpha": 1}
    records, _, _ = clean_db.execute_query(
        "MATCH (r:Rollout {rollout_id: $rid}) RETURN r.kept AS k, r.reject_reason AS why",
        rid=rid,
        database_=database,
    )
    assert (records[0]["k"], records[0]["why"]) == (False, "isr_below_alpha")


def test_single_answers_use_exact_match_with_aliases() -> None:
    targets = [Target("uk", ("United Kingdom", "Britain"))]
    uk = [AnswerRecord("United Kingdom")]
    assert score([], targets, "britain", uk, 1, 100).accuracy == 1.0
    assert score([], targets, "The United Kingdom, I think", uk, 1, 100).accuracy == 0.0
    assert score([], targets, "", uk, 1, 100).accuracy == 0.0


def test_structured_answers_score_their_attributes() -> None:
    """Gold: Golding (UK, 1980), Rushdie (UK, 1981) = 2 entity + 4 value atoms. The names-only
    answer finds 2 of 6 atoms; the full records find all 6; a wrong year costs one atom each
    way. Aliases of targets count for entities (Britain = United Kingdom as a value too)."""
    gold = gold_records(
        '[{"name": "William Golding", "entity_id": "/wiki/William_Golding", "attributes": '
        '{"country": ["United Kingdom"], "year": ["1980"]}}, {"name": "Salman Rushdie", '
        '"entity_id": "/wiki/Salman_Rushdie", "attributes": {"country": ["United Kingdom"], '
        '"year": ["1981"]}}]'
    )
    names_only = score([], [], "William Golding\nSalman Rushdie", gold, 1, 100)
    assert (names_only.precision, names_only.recall) == (1.0, pytest.approx(2 / 6))
    full = format_records(gold)
    assert full.splitlines()[0] == "William Golding | country: United Kingdom | year: 1980"
    assert score([], [], full, gold, 1, 100).f1 == 1.0
    wrong = full.replace("1981", "1982")
    s = score([], [], wrong, gold, 1, 100)
    assert (s.precision, s.recall) == (pytest.approx(5 / 6), pytest.approx(5 / 6))
    assert s.accuracy == 0.0  # one wrong atom: the list is not right, F1 gives partial credit
    assert score([], [], full, gold, 1, 100).accuracy == 1.0
    extra = score([], [], full + "\nNadine Gordimer", gold, 1, 100)
    assert (extra.recall, extra.accuracy) == (1.0, 0.0)  # everything right plus one wrong


def test_answer_parsing_and_fae() -> None:
    assert [r.name for r in gold_records('["A", "B"]')] == ["A", "B"]
    assert [r.name for r in gold_records('"A"')] == ["A"]
    assert [r.name for r in gold_records('[{"name": "A"}, {"text": "B"}]')] == ["A", "B"]
    assert [r.name for r in gold_records('{"answers": ["A"]}')] == ["A"]
    assert [r.name for r in gold_records("plain text")] == ["plain text"]
    assert [r.name for r in parse_records("A, B")] == ["A", "B"]
    assert [r.name for r in parse_records("Washington, D.C.", expect_many=False)] == [
        "Washington, D.C."
    ]
    assert [r.name for r in parse_records("- A\n- B; C")] == ["A", "B", "C"]
    assert parse_records("A | year: 1980; 1981")[0].attributes == {"year": ["1980", "1981"]}
    assert atom_prf(parse_records("a\nb"), parse_records("a\nc")) == (0.5, 0.5, 0.5)
    assert fae(1.0, 100, 100) == 0.0 and fae(0.0, 0, 100) == 0.0
    assert fae(1.0, 0, 100) == 1.0


def test_filter_verdicts() -> None:
    config = FilterConfig()
    assert verdict("answer", 0.31, 0.11, config) is None
    assert verdict("max_rounds", 1.0, 1.0, config) == "not_answered"
    assert verdict("answer", 0.3, 1.0, config) == "isr_below_alpha"
    assert verdict("answer", 0.5, 0.1, config) == "ise_below_beta"


_word = st.text(alphabet="abc ", min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(names=st.lists(_word, min_size=1, max_size=4), text=st.text(alphabet="abc .", max_size=30))
def test_entity_matching_agrees_with_a_regex_oracle(names: list[str], text: str) -> None:
    targets = [Target(f"t{i}", (name,)) for i, name in enumerate(names)]
    expected = set()
    for t in targets:
        key = normalize(t.names[0])
        if (len(key) >= 2 or key.isdigit()) and re.search(
            rf"(?<!\w){re.escape(key)}(?!\w)", normalize(text)
        ):
            expected.add(t.target_id)
    assert match_units([text], targets) == expected


def test_search_result_numbers_reveal_nothing() -> None:
    from seekgraph.agent.web.responses import returned_units

    targets = [Target("number:2", ("2",)), Target("/wiki/Oslo", ("Oslo",))]
    results = [("Oslo", "/wiki/Oslo", "The capital."), ("Bergen", "/wiki/Bergen", "A city.")]
    units = returned_units("search", {"query": "capital"}, search_text("capital", results))
    assert match_units(units, targets) == {"/wiki/Oslo"}
    assert match_units(["Oslo has 2 airports."], targets) == {"number:2", "/wiki/Oslo"}


def test_the_gold_walker_answers_only_what_it_saw() -> None:
    from seekgraph.agent.gold_walker import revealed_answer

    gold = [
        AnswerRecord("William Golding", {"year": ["1980"], "country": ["United Kingdom"]}),
        AnswerRecord("Salman Rushdie", {"year": ["1981"]}),
    ]
    seen = revealed_answer(gold, ["1980 | William Golding | Rites of Passage", "Born in 1981."])
    assert seen == [AnswerRecord("William Golding", {"year": ["1980"]})]
    # a value counts for its entity only in a unit naming it (or an alias of it)
    apart = ["William Golding won.", "It was 1980 in the United Kingdom."]
    assert revealed_answer(gold, apart) == [AnswerRecord("William Golding")]
    aliases = {"william golding": {"william golding", "sir william golding"}}
    assert revealed_answer(gold, ["Sir William Golding | 1980"], aliases) == seen
    assert score([], [], format_records(seen), gold, 1, 100).recall == pytest.approx(2 / 5)
