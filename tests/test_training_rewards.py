"""GRPO rewards as plain functions: soft-F against a brute-force oracle, ISE efficiency, format."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seekgraph.agent.web.responses import search_text, visit_text
from seekgraph.training.rewards import (
    efficiency,
    format_score,
    make_trl_rewards,
    precision_recall,
    score_completion,
    score_trajectory,
    soft_f,
)

TARGETS = [["Paris"], ["Lyon", "Lugdunum"], ["Nice"], ["Metz"]]


def visit(evidence: str, goal: str = "cities", **extra: object) -> dict[str, object]:
    """A visit step as the environment records it: the call's arguments and the tools' text."""
    arguments = {"url": ["/wiki/France"], "goal": goal}
    observation = visit_text("/wiki/France", goal, evidence, "")
    return {
        "role": "tool_call",
        "tool": "visit",
        "arguments": arguments,
        "observation": observation,
        **extra,
    }


def test_soft_f_worked_example() -> None:
    # 2 of 3 predictions right, 2 of 4 targets found: P = 2/3, R = 1/2; omega = 1 → F1 = 4/7
    p, r = precision_recall(["Paris", "Lugdunum", "Rome"], TARGETS)
    assert (p, r) == (pytest.approx(2 / 3), pytest.approx(1 / 2))
    assert soft_f(p, r, 1.0) == pytest.approx(4 / 7)
    # omega = 2 weighs recall: (1+4)·P·R / (4·P + R)
    assert soft_f(p, r, 2.0) == pytest.approx(5 * (2 / 3) * 0.5 / (4 * (2 / 3) + 0.5))
    assert soft_f(0.0, 0.0) == 0.0


@settings(max_examples=50, deadline=None)
@given(p=st.floats(0, 1), r=st.floats(0, 1), omega=st.floats(0.1, 4))
def test_soft_f_is_the_weighted_harmonic_mean(p: float, r: float, omega: float) -> None:
    value = soft_f(p, r, omega)
    if p == 0 or r == 0:
        assert value == 0.0
        return
    # F_omega = 1 / (alpha/P + (1-alpha)/R) with alpha = 1/(1+omega²): brute-force identity
    alpha = 1 / (1 + omega * omega)
    assert value == pytest.approx(1 / (alpha / p + (1 - alpha) / r), rel=1e-6)
    assert min(p, r) - 1e-9 <= value <= max(p, r) + 1e-9


def test_efficiency_is_ise_over_targets() -> None:
    assert efficiency(4, 2, 4) == 0.5  # ISE 2 per action, of 4 targets
    assert efficiency(4, 1, 4) == 1.0
    assert efficiency(0, 3, 4) == 0.0
    assert efficiency(2, 0, 0) == 0.0


def test_format_score() -> None:
    assert format_score("<think>ok</think>\n<answer>Paris</answer>") == 1.0
    assert format_score("<answer>Paris</answer>") == 1.0
    assert format_score("<answer>a</answer><answer>b</answer>") == pytest.approx(0.2)
    call = '<think>go</think>\n<tool_call>\n{"name": "search", "arguments": {"query": "x"}}\n</tool_call>'
    assert format_score(call) == 0.5
    assert format_score("<tool_call>{not json}</tool_call>") == pytest.approx(0.2)
    assert format_score("<think>x</think><tool_call>{bad}</tool_call><answer>") == pytest.approx(
        0.4
    )
    assert format_score("Paris is the answer.") == 0.0


def test_trl_signature_reads_dataset_columns() -> None:
    soft, eff, fmt = make_trl_rewards(omega=1.0)
    completions = [
        "<answer>Paris\nLyon</answer>",
        "I do not know",
        [{"role": "assistant", "content": "<answer>Nice</answer>"}],
    ]
    columns = {"targets": [TARGETS, TARGETS, TARGETS], "prior_actions": [1, 1, 2]}
    prompts = ["q"] * 3
    assert soft(prompts, completions, **columns) == pytest.approx([2 / 3, 0.0, 0.4])
    assert eff(prompts, completions, **columns) == pytest.approx([0.5, 0.0, 0.125])
    assert fmt(prompts, completions, **columns) == [1.0, 0.0, 1.0]
    scored = score_completion("<answer>Paris</answer>", [["Paris"]], prior_actions=1)
    assert scored == {"soft_f": 1.0, "efficiency": 1.0, "format": 1.0}


def test_trajectory_rewards_score_every_turn_and_visit_observations() -> None:
    trajectory = {
        "steps": [
            {
                "role": "tool_call",
                "tool": "search",
                "arguments": {"query": "cities"},
                "observation": search_text("cities", [("Paris", "/p", "Paris and Lyon.")]),
            },
            visit("Nice, Metz and Lugdunum"),
            visit("nothing here", goal="Paris Lyon Nice Metz"),
        ],
        "turns": [
            '<tool_call>\n{"name": "visit", "arguments": {}}\n</tool_call>',
            "junk",
            "<answer>Paris\nRome</answer>",
        ],
        "prediction": "Paris\nRome",
    }
    scored = score_trajectory(trajectory, TARGETS, omega=1.0)
    # P = 1/2, R = 1/4 -> F = 2 * 1/8 / (3/4) = 1/3
    assert scored["soft_f"] == pytest.approx(1 / 3)
    # visits revealed Nice, Metz, Lyon (alias Lugdunum): 3 targets / 3 calls / |R| = 4
    assert scored["efficiency"] == pytest.approx(3 / 3 / 4)
    assert scored["format"] == pytest.approx((0.5 + 0.0 + 1.0) / 3)
    soft, eff, fmt = make_trl_rewards(omega=1.0)
    columns = {"targets": [TARGETS, TARGETS], "trajectory": [trajectory, {"turns": []}]}
    assert soft(["q", "q"], ["ignored", "ignored"], **columns) == pytest.approx([1 / 3, 0.0])
    assert eff(["q", "q"], ["", ""], **columns) == pytest.approx([0.25, 0.0])
    assert fmt(["q", "q"], ["", ""], **columns) == pytest.approx([0.5, 0.0])


def test_efficiency_counts_only_the_policys_own_calls() -> None:
    """Seeded calls (the environment's opening search and visit) neither count as the
    policy's actions nor lend it the targets they revealed."""
    seeded = [
        {"role": "tool_call", "tool": "search", "observation": "x", "seeded": True},
        visit("Paris Lyon", seeded=True),
    ]
    own = visit("Nice")
    answer = {"turns": ["<answer>Nice</answer>"], "prediction": "Nice"}
    only_seeded = score_trajectory({"steps": seeded, **answer}, TARGETS)
    assert only_seeded["efficiency"] == 0.0
    with_own = score_trajectory({"steps": [*seeded, own], **answer}, TARGETS)
    assert with_own["efficiency"] == pytest.approx(1 / 1 / 4)


def test_efficiency_counts_what_the_web_returned_not_the_goal() -> None:
    """A visit whose goal names every target and whose page shows none earns nothing; an
    attribute (Metz, owned by Lyon here) counts only in a unit that names its owner."""
    answer = {"turns": ["<answer>Nice</answer>"], "prediction": "Nice"}
    echo = visit("Nothing here about anyone.", goal="Paris Lyon Nice Metz Lugdunum")
    assert score_trajectory({"steps": [echo], **answer}, TARGETS)["efficiency"] == 0.0
    owners = [[], [], [], [1]]  # Metz is an attribute of Lyon
    apart = visit("Metz is far. Lyon is near.")
    together = visit("Lyon | Metz")
    scored = score_trajectory({"steps": [apart], **answer}, TARGETS, owners=owners)
    assert scored["efficiency"] == pytest.approx(1 / 1 / 4)  # Lyon only
    scored = score_trajectory({"steps": [together], **answer}, TARGETS, owners=owners)
    assert scored["efficiency"] == pytest.approx(2 / 1 / 4)
    _, eff, _ = make_trl_rewards()
    columns = {"targets": [TARGETS], "owners": [owners], "trajectory": [{"steps": [apart]}]}
    assert eff(["q"], [""], **columns) == pytest.approx([1 / 4])
