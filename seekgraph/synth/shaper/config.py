"""Settings of the WebShaper stages (config section ``[shaper]``; flags override)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from seekgraph.common.config import option


@dataclass(frozen=True)
class ShaperConfig:
    """Seeds (random walks), layer-wise expansion, and the import of published tasks."""

    n_seeds: int = option(30, "Random-walk attempts of the seed stage.", min=0)
    seed: int = option(0, "RNG seed of a run (attempts and expansions are seeded from it).")
    max_answers: int = option(3, "Largest answer set a seed may have.", min=1)
    max_narrow: int = option(3, "At most this many intersected KPs narrow a seed's answer.", min=0)
    neighbour_limit: int = option(300, "Edges read per node while walking.", min=1)
    layers: int = option(5, "Expansion layers on top of the seeds.", min=0)
    leaf_tries: int = option(3, "Leaf constants tried per task and layer.", min=1)
    candidate_tries: int = option(3, "First definitions tried per leaf.", min=1)
    max_definition: int = option(2, "KPs intersected to define a new variable.", min=1)
    published: Path | None = option(
        None, "shaper-import: a published WebShaper JSONL file {id, question, answer, ...}."
    )
    paraphrase_with: str = option(
        "", "LLM backend spec that paraphrases expanded questions (empty: templates only)."
    )
