"""Pipeline stages of training: `dataset` (always) and `train-sft` (only with --with-training).

Settings come from the `[training]` section of the config file: `[training.dataset]` (a
DatasetSpec) and `[training.sft]` (an SFTRunConfig; the pipeline default is a short CPU run of
SmolLM2 on the dataset this pipeline built).
"""

from __future__ import annotations

from graphdb.stages import StageReport
from seekgraph.pipeline import PipelineContext
from training.config import DatasetSpec, SFTRunConfig, from_mapping
from training.errors import DatasetError

PIPELINE_DATASET = "pipeline"
PIPELINE_SFT = {"max_steps": 10, "max_length": 1024, "save_steps": 5, "learning_rate": 2e-5}


def dataset_stage(ctx: PipelineContext) -> StageReport:
    """Build the pipeline's dataset (mix `auto`: hybrid when pruned trajectories exist)."""
    from training.datasets import build_dataset

    section = ctx.section("training").get("dataset", {})
    spec = from_mapping(
        DatasetSpec, {"name": PIPELINE_DATASET, **section}, source="[training.dataset]"
    )
    try:
        built = build_dataset(ctx.driver, ctx.database, spec, ctx.out_dir / "datasets")
    except DatasetError as e:
        report = StageReport("dataset")
        report.notes["skipped"] = str(e)
        return report.finish()
    return built.report


def train_sft_stage(ctx: PipelineContext) -> StageReport:
    """A short CPU SFT run of SmolLM2 on the pipeline's dataset (resumes if interrupted)."""
    from training.sft import run_sft

    report = StageReport("train-sft")
    section = {
        "dataset": PIPELINE_DATASET,
        **PIPELINE_SFT,
        **ctx.section("training").get("sft", {}),
    }
    config = from_mapping(SFTRunConfig, section, source="[training.sft]")
    try:
        result = run_sft(
            config, driver=ctx.driver, database=ctx.database, out_root=ctx.out_dir, echo=ctx.echo
        )
    except DatasetError as e:
        report.notes["skipped"] = str(e)
        return report.finish()
    report.keep(result.steps)
    report.notes["run"] = result.run_id
    if result.losses:
        report.notes["loss"] = f"{result.losses[0]:.3f} -> {result.losses[-1]:.3f}"
    report.notes["steps_per_second"] = round(result.steps_per_second, 3)
    report.notes["checkpoint"] = str(result.checkpoint)
    if result.dropped_too_long:
        report.notes["dropped_too_long"] = result.dropped_too_long
    return report.finish()
