"""Pipeline stages of WebLeaper (`seekgraph pipeline`): trees, Basic, Union, Reverse-Union."""

from __future__ import annotations

from graphdb.stages import StageReport
from seekgraph.pipeline import PipelineContext
from synth.leaper.common import LeaperConfig
from synth.leaper.export import export_tasks
from synth.leaper.tasks_basic import build_basic_tasks
from synth.leaper.tasks_reverse import build_reverse_tasks
from synth.leaper.tasks_union import build_union_tasks
from synth.leaper.trees import build_trees


def _config(ctx: PipelineContext) -> LeaperConfig:
    return LeaperConfig.from_section(ctx.section("leaper"))


def trees_stage(ctx: PipelineContext) -> StageReport:
    return build_trees(ctx.driver, ctx.database, _config(ctx))


def basic_stage(ctx: PipelineContext) -> StageReport:
    return build_basic_tasks(ctx.driver, ctx.database, _config(ctx))


def union_stage(ctx: PipelineContext) -> StageReport:
    return build_union_tasks(ctx.driver, ctx.database, _config(ctx))


def reverse_stage(ctx: PipelineContext) -> StageReport:
    """Reverse-Union tasks, then every kept WebLeaper task exported to `out/leaper_tasks.jsonl`."""
    report = build_reverse_tasks(ctx.driver, ctx.database, _config(ctx))
    path = ctx.out_dir / "leaper_tasks.jsonl"
    report.notes["exported"] = f"{export_tasks(ctx.driver, ctx.database, path)} tasks to {path}"
    return report
