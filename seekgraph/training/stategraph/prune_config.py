"""The prune stage's settings (config section ``[prune]``; flags override)."""

from __future__ import annotations

from dataclasses import dataclass

from seekgraph.common.config import option

EXTRACTORS = ("rule", "mixed", "llm")


@dataclass(frozen=True)
class PruneConfig:
    """Settings of the `prune` stage (config section ``[prune]``; flags override)."""

    extractor: str = option(
        "rule",
        "State-graph constructions for the vote: rule (the rule extractor at three evidence "
        "granularities), mixed (three different readings: entity rules, an embedding matcher "
        "and a constrained LLM choice on --extractor-backend) or llm (three runs of free-form "
        "JSON extraction on --extractor-backend).",
        choices=EXTRACTORS,
    )
    extractor_backend: str = option(
        "transformers", "LLM spec for the llm and mixed extractors (mixed: transformers only)."
    )
    embedding_threshold: float = option(
        0.5, "mixed: cosine at which a claim relies on an observation unit.", min=-1, max=1
    )
    rewrite: bool = option(
        True,
        "Rewrite thoughts whose context lost pruned steps (deterministically: the sentences "
        "that cite a pruned step or name what only it showed are dropped; no model).",
    )
    rewrite_backend: str = option(
        "",
        "LLM spec that writes rewrite candidates (e.g. transformers, or an OpenAI-compatible "
        "server); a candidate is used only when it passes the checks, else the deterministic "
        "rewrite is. Empty: no LLM, no model loaded.",
    )
    rewrite_limit: int = option(
        2,
        "With rewrite_backend: LLM-rewrite the thoughts of at most this many pruned "
        "trajectories per run (-1: all; CPU generation takes minutes each); the rest are "
        "rewritten deterministically.",
        min=-1,
    )
    n_candidates: int = option(
        3, "LLM rewrite candidates per thought (with rewrite_backend).", min=1, max=16
    )
    max_new_tokens: int = option(64, "Length limit of one rewrite candidate.", min=8, max=1024)
    chunk_size: int = option(50, "Trajectories per write batch.", min=1)
    graph_search: str = option(
        "cypher",
        "Where the answer's ancestors are found before the search: cypher (a query over the "
        "stored graphs, read back) or memory (the same reachability on the graphs as built: "
        "no round trip, for large runs; the graphs are stored either way).",
        choices=("cypher", "memory"),
    )
    include_unfiltered: bool = option(False, "Also prune rollouts the filter did not keep.")
    rollout_ids: tuple[str, ...] = option((), "Only these rollout ids (repeatable).")
    limit: int = option(0, "At most this many trajectories (0: all).", min=0)
    extract_processes: int = option(
        0,
        "Processes that run the rule extractor (0: one per CPU core, at most 8; 1: the "
        "stage's own process). The llm and mixed extractors hold a model and run in the "
        "stage's process.",
        min=0,
    )
    exact_max_candidates: int = option(
        14, "Run the exact solver only on graphs this small (optimality gap).", min=0
    )
    redo: bool = option(False, "Also redo rollouts that already have a prune status (benches).")
    lease_seconds: float = option(
        1800.0,
        "How long a worker's claim on a chunk lasts; a killed worker's chunk is taken over "
        "after this.",
        min=1,
    )
