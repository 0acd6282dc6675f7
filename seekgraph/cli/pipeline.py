"""The pipeline: every stage in order, the only place that knows them all.

`STAGES` lists the stage objects (`seekgraph.graphdb.stages.Stage`) of every package; `seekgraph pipeline`
runs them in this order, and each is also a command of the same name. A stage is idempotent and
resumable, so the pipeline is simply re-run after a kill.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Callable

from seekgraph.agent.stages import FILTER, ROLLOUT, ROLLOUT_LLM, SCORE, WEB_INDEX
from seekgraph.common.config import ConfigFile, load_stage_config
from seekgraph.graphdb.errors import SeekgraphError
from seekgraph.graphdb.stages import Stage, StageContext, StageReport, save_report
from seekgraph.synth.stages import (
    INGEST,
    LEAPER_BASIC,
    LEAPER_REVERSE,
    LEAPER_TREES,
    LEAPER_UNION,
    QUALITY,
    RELATIONS,
    SHAPER_EXPAND,
    SHAPER_IMPORT,
    SHAPER_SEEDS,
)
from seekgraph.training.stages import DATASET, EVAL, EXPERIMENT, PRUNE, TRAIN_GRPO, TRAIN_SFT
from seekgraph.viz.stages import REPORT

STAGES: list[Stage] = [  # type: ignore[type-arg]
    INGEST,
    RELATIONS,
    LEAPER_TREES,
    LEAPER_BASIC,
    LEAPER_UNION,
    LEAPER_REVERSE,
    SHAPER_IMPORT,
    SHAPER_SEEDS,
    SHAPER_EXPAND,
    QUALITY,
    WEB_INDEX,
    ROLLOUT,
    ROLLOUT_LLM,
    SCORE,
    FILTER,
    PRUNE,
    DATASET,
    TRAIN_SFT,
    TRAIN_GRPO,
    EVAL,
    EXPERIMENT,
    REPORT,
]
SECTIONS = frozenset({"neo4j", "server", *(s.section for s in STAGES)})


class PipelineError(SeekgraphError):
    """A stage of the pipeline failed; the message names the stage."""


def select_stages(
    only: tuple[str, ...] = (), skip: tuple[str, ...] = (), with_optional: bool = False
) -> list[Stage]:  # type: ignore[type-arg]
    """The stages to run: all non-optional ones (optional ones with `with_optional` or when
    named in `only`, manual ones only when named), minus `skip`."""
    names = [s.name for s in STAGES]
    unknown = [n for n in (*only, *skip) if n not in names]
    if unknown:
        raise PipelineError(f"unknown stage(s) {unknown}", hint=f"stages are {', '.join(names)}")
    chosen = []
    for stage in STAGES:
        if only and stage.name not in only:
            continue
        asked = stage.name in only
        if stage.name in skip or (stage.optional and not (with_optional or asked)):
            continue
        if stage.manual and not asked:
            continue
        chosen.append(stage)
    return chosen


def run_stage(
    ctx: StageContext,
    stage: Stage,  # type: ignore[type-arg]
    config_file: ConfigFile,
    flags: dict[str, object] | None = None,
    extra: ConfigFile | None = None,
) -> StageReport:
    """Load the stage's config (the one loader), run it, save and print its report."""
    config = load_stage_config(stage, config_file, flags, extra)
    report = stage.run(ctx, config)
    save_report(ctx.driver, report, ctx.database)
    for line in report.summary_lines():
        ctx.echo(line)
    return report


def run_stages(
    ctx: StageContext,
    stages: list[Stage],  # type: ignore[type-arg]
    config_file: ConfigFile,
    flags: dict[str, dict[str, object]] | None = None,
    on_failure: Callable[[list[StageReport]], None] | None = None,
) -> list[StageReport]:
    """Run `stages` in order; a failing stage stops the run with a `PipelineError` naming it
    (`on_failure` sees the reports of the stages that finished)."""
    reports: list[StageReport] = []
    for stage in stages:
        ctx.echo(f"== {stage.name}: {stage.help}")
        try:
            reports.append(run_stage(ctx, stage, config_file, (flags or {}).get(stage.name)))
        except SeekgraphError as e:
            if on_failure is not None:
                on_failure(reports)
            raise PipelineError(f"stage {stage.name} failed: {e.one_line()}") from e
    return reports


def summary_table(reports: list[StageReport]) -> list[str]:
    """A fixed-width table: stage, kept, rejected, skipped, seconds, top rejection reasons."""
    head = f"{'stage':<20} {'kept':>8} {'rejected':>9} {'skipped':>8} {'seconds':>8}  reasons"
    lines = [head, "-" * len(head)]
    for r in reports:
        reasons = ", ".join(f"{k}={v}" for k, v in r.reasons.most_common(3))
        lines.append(
            f"{r.stage:<20} {r.kept:>8} {r.rejected:>9} {r.skipped:>8} {r.seconds:>8.1f}  {reasons}"
        )
    return lines


SUMMARY_FILE = "pipeline-summary.json"


def summary_record(reports: list[StageReport], stages: list[Stage]) -> dict[str, object]:  # type: ignore[type-arg]
    """What `seekgraph pipeline` writes to ``OUT/pipeline-summary.json``: per stage its help
    line, kept, rejected (by reason), skipped and seconds, with the machine it ran on. The
    README's pipeline table is generated from this file (`make docs`), so its numbers are
    those of a real run."""
    helps = {s.name: s.help for s in stages}
    return {
        "date": datetime.date.today().isoformat(),
        "cores": os.cpu_count(),
        "seconds": round(sum(r.seconds for r in reports), 1),
        "stages": [
            {
                "stage": r.stage,
                "help": helps.get(r.stage, ""),
                "kept": r.kept,
                "rejected": r.rejected,
                "reasons": dict(r.reasons.most_common()),
                "skipped": r.skipped,
                "seconds": round(r.seconds, 1),
            }
            for r in reports
        ],
    }
