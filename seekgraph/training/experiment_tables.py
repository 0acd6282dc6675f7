"""What an experiment reports: per arm and seed its dataset, run and evaluation, and a table per
paper with the mean and the range over seeds, saying which differences are beyond seed noise."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seekgraph.graphdb.stages import StageReport
from seekgraph.training.experiment_config import ARM_NAMES, TABLES, ExperimentConfig


@dataclass
class ArmResult:
    arm: str
    seed: int
    dataset_id: str
    examples: int  # examples the SFT run trained on
    dropped: int  # examples too long for max_length
    run_id: str
    checkpoint: str
    eval_id: str
    metrics: dict[str, float]
    losses: list[float] = field(default_factory=list)
    train_seconds: float = 0.0


@dataclass
class ExperimentResult:
    experiment_id: str
    base: dict[str, float]
    arms: list[ArmResult]
    data: dict[str, Any]
    tables: str  # markdown
    path: Path


def summarize(values: list[float]) -> tuple[float, float, float]:
    """(mean, min, max) of the per-seed values."""
    return statistics.fmean(values), min(values), max(values)


def within_noise(a: list[float], b: list[float]) -> bool:
    """Two arms differ by less than their seeds do: the ranges over seeds overlap (with one
    seed each, any difference counts as within noise: there is no spread to compare with)."""
    if len(a) < 2 or len(b) < 2:
        return True
    return max(a) >= min(b) and max(b) >= min(a)


def _noise_line(name: str, reference: str, beyond: list[str], seeds: int) -> str:
    if seeds < 2:
        return f"- {name} vs {reference}: one seed, so no spread to judge noise by."
    if beyond:
        return (
            f"- {name} vs {reference}: beyond seed noise on {', '.join(beyond)}; the rest within."
        )
    return f"- {name} vs {reference}: every difference is within seed noise (ranges overlap)."


def render_tables(
    config: ExperimentConfig,
    base: dict[str, float],
    results: list[ArmResult],
    data: dict[str, Any],
) -> str:
    """The two papers' tables in markdown: mean [min, max] over seeds per arm and metric, the
    base model's row, and which differences against the reference arm are within noise."""
    lines = [
        f"# Experiment `{config.name}`",
        "",
        f"Student: `{config.model}`, {config.max_steps} SFT steps per arm and seed (batch "
        f"{config.per_device_train_batch_size}x{config.gradient_accumulation_steps}, lr "
        f"{config.learning_rate:g} {config.lr_scheduler_type}, max_length {config.max_length}); "
        f"seeds {', '.join(map(str, config.seeds))}. Evaluation: {data.get('eval_tasks')} held-out "
        f"tasks, at most {config.max_rounds} rounds (F-AE's Max_Rounds), greedy. Teacher data: "
        f"{data.get('train_tasks')} train tasks, {data.get('rollouts')} rollouts "
        f"(`{data.get('teacher')}`); filter rejections {data.get('filter_rejections')}; "
        f"{data.get('pruned_versions')} of its {data.get('rollouts_total')} rollouts have a "
        f"pruned version (this pass: {data.get('prune')}). "
        + (
            f"Examples per arm (the smallest arm's count, per seed): {data['examples_per_arm']}."
            + (
                " At equal sizes `random` is the first examples of the unfiltered data, the "
                "`unfiltered` arm itself: trained once, shown as unfiltered."
                if data.get("random_is_unfiltered")
                else ""
            )
            if data.get("examples_per_arm")
            else "Arms train on datasets of their own sizes."
        ),
        "",
    ]
    for paper, (arms, metrics) in TABLES.items():
        present = [a for a in arms if any(r.arm == a for r in results)]
        if len(present) < 2:
            continue
        names = ARM_NAMES.get(paper, {})
        lines += [f"## {paper}", ""]
        lines.append("| arm | examples (dropped too long) | " + " | ".join(metrics) + " |")
        lines.append("|---" * (len(metrics) + 2) + "|")
        lines.append("| base model | - | " + " | ".join(f"{base[m]:.3f}" for m in metrics) + " |")
        per_arm: dict[str, dict[str, list[float]]] = {}
        for arm in present:
            runs = [r for r in results if r.arm == arm]
            per_arm[arm] = {m: [r.metrics[m] for r in runs] for m in metrics}
            cells = []
            for m in metrics:
                mean, low, high = summarize(per_arm[arm][m])
                cells.append(
                    f"{mean:.3f} [{low:.3f}, {high:.3f}]" if len(runs) > 1 else f"{mean:.3f}"
                )
            examples = "/".join(str(r.examples) for r in runs)
            dropped = "/".join(str(r.dropped) for r in runs)
            lines.append(
                f"| {names.get(arm, arm)} | {examples} ({dropped}) | " + " | ".join(cells) + " |"
            )
        reference = present[0]
        lines.append("")
        for arm in present[1:]:
            beyond = [
                m for m in metrics if not within_noise(per_arm[reference][m], per_arm[arm][m])
            ]
            lines.append(
                _noise_line(
                    names.get(arm, arm), names.get(reference, reference), beyond, len(config.seeds)
                )
            )
        lines.append("")
    return "\n".join(lines) + "\n"


def experiment_report(result: ExperimentResult) -> StageReport:
    report = StageReport("experiment")
    report.keep(len(result.arms))
    report.notes["experiment"] = result.experiment_id
    report.notes["table"] = str(result.path)
    return report
