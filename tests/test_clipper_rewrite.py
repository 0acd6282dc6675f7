"""Rewriting and LLM extraction with the real packaged SmolLM2 (transformers, CPU); kept tiny."""

from __future__ import annotations

import math

import pytest

from seekgraph.common.llm.transformers_backend import TransformersBackend
from seekgraph.common.wire import check_complete, parse_messages
from seekgraph.training.stategraph.extract_llm import LLMExtractor
from seekgraph.training.stategraph.rewrite import RewriteConfig, Rewriter, smollm2_scorer
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
    for r in records:
        if r.status == "rewritten":
            assert r.candidates and len(r.perplexities) == len(r.candidates)
            best = min(range(len(r.candidates)), key=lambda i: r.perplexities[i])
            assert r.chosen == r.candidates[best] and math.isfinite(r.perplexities[best])
            assert next(t for t in pruned.turns if t.index == r.turn).thought == r.chosen
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
