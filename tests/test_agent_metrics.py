"""ISR, ISE, P/R/F1, accuracy and F-AE: hand-computed on a fixture trajectory, and the filter."""

from __future__ import annotations

import re
from dataclasses import dataclass

import neo4j
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.filtering import FilterConfig, filter_rollouts, verdict
from agent.metrics import (
    Target,
    fae,
    gold_items,
    match_entities,
    prediction_items,
    score,
    set_prf,
)
from agent.rollouts import load_targets, save_rollout
from agent.scoring import score_rollouts
from agent.teacher import TaskInfo
from agent.trajectory import Rollout
from agent.web.tools import Observation, normalize
from common.wire import assistant_text
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
    t.add_tool_turn(
        _call("search first", "search", {"query": ["Booker Prize"]}),
        Observation(
            "1. [Booker Prize](/wiki/Booker_Prize)\nThe Booker Prize is "
            "awarded in the United Kingdom.",
            ("/wiki/Booker_Prize",),
        ),
    )
    t.add_tool_turn(
        _call("read the table", "visit", {"url": ["table:Booker_Prize_1"], "goal": "winners"}),
        Observation(
            "1980 | William Golding | Rites of Passage\n"
            "1981 | Salman Rushdie | Midnight's Children",
            ("table:Booker_Prize_1",),
        ),
    )
    t.add_tool_turn(
        _call("detour", "visit", {"url": ["/wiki/Photosynthesis"], "goal": "anything"}),
        Observation("Photosynthesis turns light into energy.", ("/wiki/Photosynthesis",)),
        detour_kind="irrelevant_visit",
    )
    answer = "William Golding\nSalman Rushdie\nNadine Gordimer"
    t.add_answer(assistant_text("done", answer=answer), answer)
    return t


# Hand-computed: ISR = 3/5; ISE = 2 (visit) / 3 (tool calls); P = R = F1 = 2/3;
# E = 1 - 4/100 = 0.96; F-AE = 2 * (2/3) * 0.96 / (2/3 + 0.96) = 1.28 / 1.62667 = 0.786885
EXPECTED = {
    "isr": 0.6,
    "ise": 2 / 3,
    "precision": 2 / 3,
    "recall": 2 / 3,
    "f1": 2 / 3,
    "accuracy": 2 / 3,
    "fae": 0.786885,
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
    s = score(t.trajectory.turns, targets, t.prediction, LEAPER_ANSWER, t.rounds, 100)
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
    assert score([], targets, "britain", ["United Kingdom"], 1, 100).accuracy == 1.0
    assert (
        score([], targets, "The United Kingdom, I think", ["United Kingdom"], 1, 100).accuracy
        == 0.0
    )
    assert score([], targets, "", ["United Kingdom"], 1, 100).accuracy == 0.0


def test_answer_parsing_and_fae() -> None:
    assert gold_items('["A", "B"]') == ["A", "B"]
    assert gold_items('"A"') == ["A"]
    assert gold_items('[{"name": "A"}, {"text": "B"}]') == ["A", "B"]
    assert gold_items('{"answers": ["A"]}') == ["A"]
    assert gold_items("plain text") == ["plain text"]
    assert prediction_items("A, B", 2) == ["A", "B"]
    assert prediction_items("Washington, D.C.", 1) == ["Washington, D.C."]
    assert prediction_items("- A\n- B; C", 3) == ["A", "B", "C"]
    assert set_prf(["a", "b"], ["a", "c"]) == (0.5, 0.5, 0.5)
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
    assert match_entities(text, targets) == expected
