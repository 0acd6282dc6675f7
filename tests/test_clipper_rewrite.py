"""Rewriting and LLM extraction with the real packaged SmolLM2 (transformers, CPU); kept tiny."""

from __future__ import annotations

import math

import pytest

from seekgraph.common.llm.transformers_backend import TransformersBackend
from seekgraph.common.wire import check_complete, parse_messages
from seekgraph.training.stategraph.extract_llm import LLMExtractor
from seekgraph.training.stategraph.rewrite import (
    RewriteConfig,
    Rewriter,
    history_shown,
    smollm2_scorer,
)
from seekgraph.training.stategraph.thoughts import problems
from tests.test_clipper_prune import fixture_messages


@pytest.fixture(scope="module")
def smollm2() -> TransformersBackend:
    return TransformersBackend()


@pytest.mark.slow
def test_rewrites_only_gap_turns_and_picks_lowest_perplexity(smollm2: TransformersBackend) -> None:
    original = parse_messages(fixture_messages()[0])
    rewriter = Rewriter(
        smollm2, smollm2_scorer(smollm2), RewriteConfig(n_candidates=2, max_new_tokens=12)
    )
    pruned, records = rewriter.rewrite(original, [1, 3])
    assert [r.turn for r in records] == [3, 6]
    removed = [2, 4, 5]
    for r in records:
        turn = next(t for t in pruned.turns if t.index == r.turn)
        assert r.status == "rewritten" and turn.thought == r.chosen
        assert r.candidates  # the model was asked either way
        if r.method == "llm":  # the checked candidate with the lowest perplexity
            passing = [c for c in r.candidates if c not in r.rejected]
            assert len(r.perplexities) == len(passing)
            best = min(range(len(passing)), key=lambda i: r.perplexities[i])
            assert r.chosen == passing[best] and math.isfinite(r.perplexities[best])
        else:  # no candidate passed: each says why, and the rewrite is the deterministic one
            assert r.method == "deterministic" and set(r.rejected) == set(r.candidates)
            assert all(r.rejected.values())
        before = [k for k in removed if k < r.turn]
        assert problems(r.chosen, before, history_shown(pruned, turn)) == []
    check_complete(pruned)
    messages = pruned.messages()
    assert [t.parsed.call_text for t in pruned.turns] == [
        original.turns[0].parsed.call_text,
        original.turns[2].parsed.call_text,
        "",
    ]
    assert messages[2] == fixture_messages()[0][2]  # turn 1 needs no rewrite: unchanged
    assert pruned.answer == original.answer


@pytest.mark.slow
def test_llm_extractor_builds_time_respecting_graphs(smollm2: TransformersBackend) -> None:
    messages = fixture_messages()[0]
    short = parse_messages(messages[:6] + messages[-1:])  # question, two searches, answer
    graph = LLMExtractor(smollm2, runs=1, facts_tokens=32, uses_tokens=12).extract_run(short, 0)
    assert graph.n_actions == 4 and graph.extractor == "llm"
    calls, failures = int(graph.notes["calls"]), int(graph.notes["parse_failures"])
    assert 3 <= calls <= 6 and 0 <= failures <= calls  # "uses" is skipped while nothing is known
    for a, needs in enumerate(graph.enables):
        assert needs <= set().union(*graph.produces[:a]) if a else not needs
