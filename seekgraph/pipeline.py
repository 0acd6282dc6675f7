"""`seekgraph pipeline`: every stage, in order, on one data set (the default one unless told).

A stage is a function ``run(ctx: PipelineContext) -> StageReport | list[StageReport]`` named in
`STAGES` as ``module:function``; it must be idempotent and resumable (re-running adds nothing),
because the pipeline is re-run after a kill. Later issues add their stage to `STAGES`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import neo4j

from graphdb.stages import StageReport, save_report
from seekgraph import DEFAULT_DATA


@dataclass(frozen=True)
class Stage:
    name: str
    target: str  # "module:function"
    help: str
    optional: bool = False  # runs only when asked for (e.g. `--with-training`)

    def load(self) -> Callable[[PipelineContext], StageReport | list[StageReport]]:
        module, attr = self.target.split(":")
        fn = getattr(importlib.import_module(module), attr)
        return fn  # type: ignore[no-any-return]


STAGES: list[Stage] = [
    Stage(
        "ingest",
        "synth.ingest.stage:run_ingest",
        "tables (JSONL, CSV, HTML) and pages of the data folder into the graph",
    ),
    Stage(
        "relations",
        "synth.ingest.stage:run_relations",
        "header -> canonical relation names (rules + MiniLM), FACT edges renamed",
    ),
    Stage(
        "leaper-trees",
        "synth.leaper.stages:trees_stage",
        "WebLeaper reasoning trees: root, anchors, relations per kept table",
    ),
    Stage(
        "leaper-basic",
        "synth.leaper.stages:basic_stage",
        "Basic tasks (one tree), target sets proven from the source rows",
    ),
    Stage(
        "leaper-union",
        "synth.leaper.stages:union_stage",
        "maximal bicliques of trees x relations (Cypher-driven), Union tasks proven",
    ),
    Stage(
        "leaper-reverse",
        "synth.leaper.stages:reverse_stage",
        "Reverse-Union tasks: unique clues, pivot, proven answers; export JSONL",
    ),
    Stage(
        "shaper-seeds",
        "synth.shaper.stages:seeds_stage",
        "WebShaper seed tasks: random walks over page links and facts, answers executed",
    ),
    Stage(
        "shaper-expand",
        "synth.shaper.stages:expand_stage",
        "WebShaper layer-wise expansion, validated by queries (consistency, shortcut, "
        "redundancy); export JSONL",
    ),
    # -- agent (issue 5): keep these after the synthesis stages (insert synthesis stages above)
    Stage(
        "web-index",
        "agent.stages:web_index",
        "page embeddings (all-MiniLM-L6-v2) for the hybrid search of the offline web",
    ),
    Stage(
        "rollout",
        "agent.stages:rollout",
        "teacher rollouts with recorded detours (real search/visit calls), resumable",
    ),
    Stage(
        "rollout-llm",
        "agent.stages:rollout_llm",
        "a few SmolLM2 (transformers, CPU) ReAct rollouts with a small round budget",
    ),
    Stage("score", "agent.stages:score", "ISR, ISE, P/R/F1, accuracy and F-AE of each rollout"),
    Stage(
        "filter",
        "agent.stages:filter_stage",
        "keep ISR > alpha and ISE > beta; kept trajectories as Tongyi JSONL",
    ),
    Stage(
        "prune",
        "training.stategraph.prune:run_stage",
        "WebClipper: state graphs, minimum necessary DAG (Cypher + search), 2-of-3 vote, "
        "thought rewriting; pruned rollouts next to their originals",
    ),
    Stage(
        "dataset",
        "training.stages:dataset_stage",
        "training dataset from kept/pruned trajectories (TRL messages, card, Dataset node)",
    ),
    Stage(
        "train-sft",
        "training.stages:train_sft_stage",
        "a short CPU SFT run of SmolLM2 on the pipeline dataset (--with-training)",
        optional=True,
    ),
    # -- report (issue 8): ALWAYS the last stage; insert new stages above this line.
    Stage(
        "report",
        "viz.report:run_stage",
        "one HTML report with plots of stages, tasks, trajectories and training",
    ),
]


@dataclass
class PipelineContext:
    """What a stage gets: the driver (owned by the CLI), the data set and an output folder."""

    driver: neo4j.Driver
    database: str | None
    data_dir: Path = DEFAULT_DATA
    out_dir: Path = Path("out")
    config: dict[str, Any] = field(default_factory=dict)
    with_training: bool = False
    echo: Callable[[str], None] = print

    def section(self, name: str) -> dict[str, Any]:
        return dict(self.config.get(name, {}))


def select_stages(
    only: tuple[str, ...] = (), skip: tuple[str, ...] = (), with_optional: bool = False
) -> list[Stage]:
    names = {s.name for s in STAGES}
    unknown = [n for n in (*only, *skip) if n not in names]
    if unknown:
        raise ValueError(f"unknown stage(s) {unknown}; stages are {[s.name for s in STAGES]}")
    chosen = []
    for stage in STAGES:
        if only and stage.name not in only:
            continue
        if stage.name in skip or (stage.optional and not with_optional and stage.name not in only):
            continue
        chosen.append(stage)
    return chosen


def run_stages(ctx: PipelineContext, stages: list[Stage]) -> list[StageReport]:
    """Run `stages` in order, saving each report (rejections and a StageRun node) in the graph."""
    reports: list[StageReport] = []
    for stage in stages:
        ctx.echo(f"== {stage.name}: {stage.help}")
        result = stage.load()(ctx)
        for report in result if isinstance(result, list) else [result]:
            if report.seconds == 0.0:
                report.finish()
            save_report(ctx.driver, report, ctx.database)
            for line in report.summary_lines():
                ctx.echo(line)
            reports.append(report)
    return reports


def summary_table(reports: list[StageReport]) -> list[str]:
    """A fixed-width table: stage, kept, rejected, skipped, seconds, top rejection reasons."""
    head = f"{'stage':<28} {'kept':>8} {'rejected':>9} {'skipped':>8} {'seconds':>8}  reasons"
    lines = [head, "-" * len(head)]
    for r in reports:
        reasons = ", ".join(f"{k}={v}" for k, v in r.reasons.most_common(3))
        lines.append(
            f"{r.stage:<28} {r.kept:>8} {r.rejected:>9} {r.skipped:>8} {r.seconds:>8.1f}  {reasons}"
        )
    return lines
