"""Pipeline stages of the agent: web-index, rollout (teacher), rollout-llm, score, filter."""

from __future__ import annotations

import importlib.util

from agent.config import AgentSettings
from graphdb.stages import StageReport
from seekgraph.pipeline import PipelineContext


def _settings(ctx: PipelineContext) -> AgentSettings:
    return AgentSettings.from_section(ctx.section("agent"))


def web_index(ctx: PipelineContext) -> StageReport:
    """Embed every page that has no embedding yet."""
    from agent.web.index import build_embeddings
    from common.embeddings import Embedder

    return build_embeddings(
        ctx.driver, ctx.database, Embedder(), batch_size=_settings(ctx).embed_batch
    )


def rollout(ctx: PipelineContext) -> StageReport:
    """Teacher rollouts with detours on every kept task (n per task)."""
    from agent.cli import make_policy
    from agent.rollouts import load_tasks, run_rollouts

    settings = _settings(ctx)
    tasks = load_tasks(ctx.driver, ctx.database)
    policy = make_policy(ctx.driver, ctx.database, "teacher", settings)
    return run_rollouts(
        ctx.driver, ctx.database, tasks, policy, n=settings.n, concurrency=settings.concurrency
    )


def rollout_llm(ctx: PipelineContext) -> StageReport:
    """A few SmolLM2 (transformers, CPU) rollouts with a small round budget."""
    from dataclasses import replace

    from agent.cli import make_policy
    from agent.rollouts import load_tasks, run_rollouts

    settings = _settings(ctx)
    if importlib.util.find_spec("common.llm.registry") is None:
        report = StageReport("rollout-llm")
        report.notes["skipped"] = "no LLM backend registry (common/llm/registry.py) yet"
        return report.finish()
    settings = replace(
        settings,
        max_rounds=settings.pipeline_llm_rounds,
        max_tokens=settings.pipeline_llm_max_tokens,
    )
    tasks = load_tasks(ctx.driver, ctx.database, limit=settings.pipeline_llm_tasks)
    policy = make_policy(ctx.driver, ctx.database, "llm", settings)
    return run_rollouts(ctx.driver, ctx.database, tasks, policy, n=1, concurrency=1)


def score(ctx: PipelineContext) -> StageReport:
    from agent.scoring import score_rollouts

    return score_rollouts(ctx.driver, ctx.database)


def filter_stage(ctx: PipelineContext) -> StageReport:
    """ISR/ISE filter, then the kept trajectories as Tongyi JSONL in `<out>/trajectories.jsonl`."""
    from agent.export import export_jsonl
    from agent.filtering import FilterConfig, filter_rollouts

    settings = _settings(ctx)
    report = filter_rollouts(ctx.driver, ctx.database, FilterConfig(settings.alpha, settings.beta))
    path = ctx.out_dir / "trajectories.jsonl"
    report.notes["exported"] = f"{export_jsonl(ctx.driver, ctx.database, path)} to {path}"
    return report
