"""Building what a rollout needs from settings: the offline web's tools and the policy.

Stages, GRPO and the evaluation all build their tools and policies here, so the same settings
give the same tools everywhere.
"""

from __future__ import annotations

from typing import Any

import neo4j

from agent.config import RolloutConfig, ToolSettings
from agent.web.tools import CachedTools, WebTools


def make_tools(
    driver: neo4j.Driver, database: str | None, settings: ToolSettings, *, cached: bool = True
) -> CachedTools | WebTools:
    """WebTools (hybrid when pages carry embeddings), behind the ToolCall cache if `cached`."""
    from agent.web.index import embedding_counts
    from common.embeddings import Embedder

    embedder = None
    if settings.hybrid and embedding_counts(driver, database)[1] > 0:
        embedder = Embedder()
    summary = None
    if settings.summary_backend:
        from common.llm.registry import load_backend

        summary = load_backend(settings.summary_backend)
    tools = WebTools(
        driver,
        database,
        top_k=settings.top_k,
        embedder=embedder,
        vector_weight=settings.vector_weight,
        summary_backend=summary,
        evidence_chars=settings.evidence_chars,
    )
    return CachedTools(tools) if cached else tools


def make_policy(driver: neo4j.Driver, database: str | None, settings: RolloutConfig) -> Any:
    """The teacher or an LLM policy (settings.policy), with cached tools."""
    from agent.react import ReactConfig
    from agent.rollouts import LLMRollouts, TeacherRollouts
    from agent.teacher import TeacherConfig, TeacherPolicy

    tools = make_tools(driver, database, settings)
    if settings.policy == "teacher":
        return TeacherRollouts(
            TeacherPolicy(
                driver,
                database,
                tools,
                TeacherConfig(detour_rate=settings.detour_rate, max_rounds=settings.max_rounds),
            )
        )
    from common.llm.registry import load_backend

    config = ReactConfig(
        max_rounds=settings.max_rounds,
        max_context_tokens=settings.max_context_tokens,
        max_seconds=settings.max_seconds,
        max_tokens=settings.max_tokens,
    )
    return LLMRollouts(load_backend(settings.backend), tools, config)
