"""Typed settings of the agent commands and stages (`[agent]` in the TOML config).

Precedence: command-line flag > config file > default.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True)
class AgentSettings:
    top_k: int = 5  # search results per query
    evidence_chars: int = 3000  # extractive visit budget per page
    hybrid: bool = True  # vector + full-text when pages carry embeddings
    vector_weight: float = 0.1  # RRF weight of the vector ranking (full-text: 1), measured
    n: int = 3  # rollouts per task
    concurrency: int = 2  # rollout threads
    detour_rate: float = 0.3  # teacher detours per planned action (pipeline default)
    max_rounds: int = 100
    max_context_tokens: int = 32_000
    max_seconds: float = 600.0
    max_tokens: int = 512  # per LLM message
    backend: str = "transformers"
    summary_backend: str = ""  # empty: extractive visit
    alpha: float = 0.3
    beta: float = 0.1
    embed_batch: int = 256
    # the LLM stage of `seekgraph pipeline` (SmolLM2 on the default data)
    pipeline_llm_tasks: int = 3
    pipeline_llm_rounds: int = 4
    pipeline_llm_max_tokens: int = 200

    @classmethod
    def from_section(cls, section: dict[str, Any], **flags: Any) -> AgentSettings:
        names = {f.name for f in fields(cls)}
        values = {k: v for k, v in section.items() if k in names}
        values.update({k: v for k, v in flags.items() if v is not None and k in names})
        return cls(**values)
