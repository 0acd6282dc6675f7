"""The model-backed pieces of the prune stage, loaded only when a run needs them: the mixed and
LLM state-graph extractors and the thought rewriter."""

from __future__ import annotations

from typing import Any

from seekgraph.common.wire import Trajectory
from seekgraph.training.stategraph.errors import StateGraphError
from seekgraph.training.stategraph.extract_rules import Lexicon
from seekgraph.training.stategraph.extraction import Extractor, rule_extractor
from seekgraph.training.stategraph.model import StateGraph
from seekgraph.training.stategraph.prune_config import PruneConfig


def mixed_extractor(embedder: Any, chooser: Any, threshold: float = 0.5) -> Extractor:
    """Three genuinely different constructions: entity rules (names), an embedding matcher
    (meaning) and a constrained LLM choice (`extract_semantic`), as runs 0, 1 and 2."""
    from seekgraph.training.stategraph.extract_rules import extract_rule_graph
    from seekgraph.training.stategraph.extract_semantic import (
        extract_choice_graph,
        extract_embedding_graph,
    )

    def extract(trajectory: Trajectory, lexicon: Lexicon) -> list[StateGraph]:
        return [
            extract_rule_graph(trajectory, lexicon, "entity", run=0),
            extract_embedding_graph(trajectory, embedder, threshold=threshold, run=1),
            extract_choice_graph(trajectory, embedder, chooser, run=2),
        ]

    return extract


def default_extractor(config: PruneConfig) -> Extractor:
    if config.extractor == "rule":
        return rule_extractor
    if config.extractor == "mixed":
        from seekgraph.common.embeddings import Embedder
        from seekgraph.common.llm.registry import load_backend
        from seekgraph.common.llm.transformers_backend import TransformersBackend
        from seekgraph.training.stategraph.extract_semantic import ChoiceModel

        backend = load_backend(config.extractor_backend)
        if not isinstance(backend, TransformersBackend):
            raise StateGraphError(
                "the mixed extractor reads a local model's logits: --extractor-backend must "
                f"be transformers[:PATH], not {config.extractor_backend!r}"
            )
        chooser = ChoiceModel(backend.model, backend.tokenizer)
        return mixed_extractor(Embedder(), chooser, config.embedding_threshold)
    from seekgraph.common.llm.registry import load_backend
    from seekgraph.training.stategraph.extract_llm import LLMExtractor

    llm = LLMExtractor(load_backend(config.extractor_backend))
    return lambda trajectory, _lexicon: llm.extract(trajectory)


def make_rewriter(config: PruneConfig) -> Any:
    from seekgraph.common.llm.registry import load_backend
    from seekgraph.common.llm.transformers_backend import TransformersBackend
    from seekgraph.training.stategraph.rewrite import RewriteConfig, Rewriter, smollm2_scorer

    backend = load_backend(config.rewrite_backend)
    scorer_model = (
        backend if (isinstance(backend, TransformersBackend) and backend.path is None) else None
    )
    return Rewriter(
        backend,
        smollm2_scorer(scorer_model),
        RewriteConfig(n_candidates=config.n_candidates, max_new_tokens=config.max_new_tokens),
    )
