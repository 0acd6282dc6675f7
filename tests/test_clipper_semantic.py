"""The two constructions that read meaning, not names: the embedding matcher (the packaged
MiniLM) and the constrained LLM choice (the packaged SmolLM2), and the mixed 2-of-3 vote."""

from __future__ import annotations

from pathlib import Path

import pytest

from seekgraph.common.embeddings import Embedder
from seekgraph.common.llm.transformers_backend import TransformersBackend
from seekgraph.common.wire import parse_messages
from seekgraph.training.stategraph.extract_semantic import (
    ChoiceModel,
    claims,
    extract_choice_graph,
    extract_embedding_graph,
    unit_key,
)
from seekgraph.training.stategraph.mindag import necessary_actions
from seekgraph.training.stategraph.prune_models import mixed_extractor
from tests.test_clipper_prune import WIKI, fixture_messages
from tests.test_clipper_wire import lexicon

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def chooser(smollm2_checkpoint: Path) -> ChoiceModel:
    backend = TransformersBackend(smollm2_checkpoint)
    return ChoiceModel(backend.model, backend.tokenizer)


def test_claims_are_the_arguments_of_a_call_and_the_lines_of_an_answer() -> None:
    trajectory = parse_messages(fixture_messages()[0])
    assert claims(trajectory.turns[0]) == ["Booker Prize 1989"]
    assert claims(trajectory.turns[2]) == [WIKI + "Kazuo_Ishiguro", "birthplace of Kazuo Ishiguro"]
    assert claims(trajectory.turns[-1]) == ["Kazuo Ishiguro"]


def test_the_embedding_graph_links_a_visit_to_the_result_it_follows() -> None:
    trajectory = parse_messages(fixture_messages()[0])
    graph = extract_embedding_graph(trajectory, Embedder(), threshold=0.4)
    visit_needs = graph.enables[3]  # action 3 = the first visit, of Kazuo Ishiguro's page
    assert visit_needs, graph.enables
    for key in visit_needs:  # what it follows is a line of a search result about him
        assert "Ishiguro" in graph.info_text[key]
        assert set(graph.producers(key)) & {1, 2}
    assert graph.extractor == "embedding" and graph.notes["matched"] >= 3
    answer = graph.n_actions - 1
    assert graph.enables[answer] and all(
        any(k in graph.produces[a] for a in range(answer)) for k in graph.enables[answer]
    )
    needed = necessary_actions(graph)
    assert answer in needed and 0 in needed


def test_the_llm_choice_always_parses_and_picks_among_earlier_units(chooser: ChoiceModel) -> None:
    trajectory = parse_messages(fixture_messages()[0])
    graph = extract_choice_graph(trajectory, Embedder(), chooser)
    assert graph.notes["prompts"] > 0 and graph.notes["parsed"] == graph.notes["prompts"]
    for a, needs in enumerate(graph.enables):
        earlier = set().union(*graph.produces[:a]) if a else set()
        assert needs <= earlier
    assert unit_key("x") == unit_key("  X ")


def test_the_mixed_vote_has_three_different_constructions(chooser: ChoiceModel) -> None:
    trajectory = parse_messages(fixture_messages()[0])
    graphs = mixed_extractor(Embedder(), chooser)(trajectory, lexicon())
    assert [(g.extractor, g.run) for g in graphs] == [
        ("rule", 0),
        ("embedding", 1),
        ("llm-choice", 2),
    ]
    assert all(not g.extraction_failed for g in graphs)
