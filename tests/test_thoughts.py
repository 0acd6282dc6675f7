"""Thoughts a person would write (issue 31, item 6): the checks that a rewritten thought must
pass, the deterministic rewrite, and a prune stage that, by default, rewrites without a model."""

from __future__ import annotations

import json

import neo4j
import pytest

from seekgraph.agent.store import read_trajectories
from seekgraph.common.llm import registry
from seekgraph.training.stategraph.prune import prune_rollouts
from seekgraph.training.stategraph.prune_config import PruneConfig
from seekgraph.training.stategraph.thoughts import (
    PLAIN_THOUGHTS,
    deterministic_rewrite,
    fluency_problems,
    problems,
)
from tests.test_clipper_prune import fixture_messages, load_fixture

# The two rewrites the packaged 135M model put into the default run's dataset (issue 31).
NONSENSE = [
    "The following edits improve the flow of the narrative: Step 2: The original thought "
    "required further revisions …",
    "Step 8: thought: I verify Polish people's origin related to the 2018 World W step 9: …",
]


def test_the_two_nonsense_rewrites_of_the_default_run_are_not_fluent() -> None:
    first, second = (fluency_problems(t) for t in NONSENSE)
    assert {"meta_text", "instruction_echo", "no_sentence_end"} <= set(first)
    assert {"meta_text", "truncated_word", "no_sentence_end"} <= set(second)


@pytest.mark.parametrize(
    "candidate",
    [  # candidates the packaged SmolLM2 wrote for the fixture trajectory (3 per thought)
        "The 1989 Booker Prize was won by Kazuo Ishiguro. No further edit needed.",
        "Kazuo Ishiguro won the Booker Prize in 1989. No further revisions are needed.",
        "To create a rewritten thought without the removed steps, you could use the following "
        "rewriting: 2. I read the page of Kazuo Ishiguro. 1. In the first step, I thought: 1. "
        "What general",
    ],
)
def test_a_small_model_echoing_the_instruction_is_caught(candidate: str) -> None:
    assert "instruction_echo" in fluency_problems(candidate)


@pytest.mark.parametrize(
    "thought",
    [
        "I read the page of Kazuo Ishiguro.",
        "Kazuo Ishiguro won the 1989 Booker Prize and was born in Nagasaki.",
        "I will search for the question's main terms.",
        "Is the list complete? I check the table again.",
    ],
)
def test_plain_thoughts_over_shown_names_pass(thought: str) -> None:
    shown = "Which winner of the 1989 Booker Prize was born in Nagasaki? Kazuo Ishiguro"
    assert problems(thought, [2], shown) == []


def test_a_thought_fails_for_a_pruned_step_or_a_name_only_it_showed() -> None:
    shown = "Which winner of the 1989 Booker Prize was born in Nagasaki? Kazuo Ishiguro"
    assert problems("As step 4 showed, the prize went to him.", [4], shown) == ["cites_pruned_step"]
    assert problems("Let me double-check what I read earlier.", [4], shown) == ["cites_pruned_step"]
    assert problems("Japan lies in East Asia, so I go on.", [4], shown) == ["unseen_entity"]
    assert problems("As step 1 showed, the prize went to him.", [4], shown) == []


def test_the_deterministic_rewrite_drops_the_sentences_citing_pruned_steps() -> None:
    shown = "Booker Prize 1989: Kazuo Ishiguro"
    thought = (
        "Step 2 found the list of winners. The linked page placed Japan in East Asia. "
        "Kazuo Ishiguro won the Booker Prize in 1989."
    )
    assert deterministic_rewrite(thought, [2], shown, "answer") == (
        "Kazuo Ishiguro won the Booker Prize in 1989."
    )
    # nothing left: one plain sentence saying what the step does
    assert (
        deterministic_rewrite("As seen in step 3, yes.", [3], shown, "visit")
        == (PLAIN_THOUGHTS["visit"])
    )
    for text in NONSENSE:
        rewritten = deterministic_rewrite(text, [2, 8, 9], shown, "search")
        assert problems(rewritten, [2, 8, 9], shown) == []


def test_default_prune_rewrites_deterministically_without_a_model(
    clean_db: neo4j.Driver, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_model(spec: str, *args: object, **kwargs: object) -> None:
        raise AssertionError(f"the default prune loaded a model ({spec!r})")

    monkeypatch.setattr(registry, "load_backend", no_model)
    messages, detours = fixture_messages()
    final = messages[-1]["content"]
    # the answer's thought leans on the pruned visit of Japan's page (step 4 of the fixture)
    messages[-1]["content"] = final.replace(
        "<think>", "<think>The linked page placed Japan in East Asia. "
    )
    load_fixture(clean_db, messages=messages, detours=detours)
    config = PruneConfig()
    assert config.rewrite and config.rewrite_backend == ""
    result = prune_rollouts(clean_db, None, config)
    [outcome] = result.outcomes
    assert (outcome.status, outcome.rewrite_status, result.rewrite_calls) == (
        "pruned",
        "rewritten",
        0,
    )
    row = clean_db.execute_query(
        "MATCH (p:Rollout {pruned: true}) RETURN p.rollout_id AS id, p.rewrite AS rewrite, "
        "p.rewrite_json AS records, [(p)-[:HAS_STEP]->(s) WHERE s.rewritten | s.rewrite] AS steps"
    ).records[0]
    assert row["rewrite"] == "deterministic"
    assert row["steps"] == ["deterministic", "deterministic"]  # turns 3 and 6 lost steps
    records = json.loads(row["records"])
    assert [(r["turn"], r["method"]) for r in records] == [
        (3, "deterministic"),
        (6, "deterministic"),
    ]
    pruned = read_trajectories(clean_db, None, [row["id"]])[row["id"]].trajectory
    answer_thought = pruned.turns[-1].thought
    assert "East Asia" not in answer_thought
    assert answer_thought == "Kazuo Ishiguro won the 1989 Booker Prize and was born in Nagasaki."
    assert pruned.turns[1].thought == "I read the page of Kazuo Ishiguro."  # passed: kept verbatim
