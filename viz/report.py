"""`seekgraph report`: one self-contained HTML page of plots over everything in the graph.

Each section reads plain rows with a query from `cypher/report/` and draws one matplotlib
figure, embedded as a base64 PNG so the page is a single file. A section whose data does not
exist yet (no rollouts, no training runs) says so in a sentence instead of drawing an empty
plot, so the report is useful after any prefix of the pipeline.
"""

from __future__ import annotations

import base64
import html
import io
import json
import os
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import neo4j

from common.config import option
from graphdb import cypher
from graphdb.stages import StageContext, StageReport, last_notes

if TYPE_CHECKING:
    from matplotlib.figure import Figure


# The published WebShaper sample beside a checkout (`../shared/data`), relative to where the
# command runs; `[report] published` or $SEEKGRAPH_WEBSHAPER_500 name another file.
PUBLISHED_KP = Path("..") / "shared" / "data" / "webshaper" / "webshaper.500.jsonl"
KEPT, REJECTED = "#009E73", "#D55E00"


@dataclass
class Section:
    title: str
    text: str
    image: str = ""  # base64 PNG; empty when there was nothing to draw


@dataclass
class Report:
    sections: list[Section] = field(default_factory=list)
    tables: list[tuple[str, list[str], list[list[object]]]] = field(default_factory=list)

    @property
    def n_plots(self) -> int:
        return sum(1 for s in self.sections if s.image)


def _png(fig: Figure) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _figure(width: float = 8.0, height: float = 4.0, ncols: int = 1) -> tuple[Figure, Any]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, ncols, figsize=(width, height))
    return fig, axes


def published_triple_counts(path: Path | None = None) -> list[int] | None:
    """Triples per task in the published WebShaper 500 (None when the file is absent)."""
    source = path or Path(os.environ.get("SEEKGRAPH_WEBSHAPER_500", str(PUBLISHED_KP)))
    if not source.is_file():
        return None
    counts = []
    with source.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                counts.append(len(json.loads(line).get("formalization") or []))
    return counts


def thresholds(driver: neo4j.Driver, database: str | None) -> tuple[float, float]:
    """ISR/ISE thresholds of the latest filter run, else the filter's defaults."""
    from agent.config import FilterConfig

    notes = last_notes(driver, "filter", database)
    default = FilterConfig()
    return float(notes.get("alpha", default.alpha)), float(notes.get("beta", default.beta))


def _read(
    driver: neo4j.Driver, name: str, database: str | None, **params: Any
) -> list[dict[str, Any]]:
    """`cypher.read` without server notifications (labels of later stages may not exist yet)."""
    text = cypher.query(name)

    def work(tx: neo4j.ManagedTransaction) -> list[dict[str, Any]]:
        return [record.data() for record in tx.run(text, params)]

    with driver.session(
        database=database, notifications_min_severity=neo4j.NotificationMinimumSeverity.OFF
    ) as s:
        return s.execute_read(work)


# --- sections -------------------------------------------------------------------------------


def stages_section(driver: neo4j.Driver, database: str | None) -> Section:
    runs = _read(driver, "report/find_stage_runs", database)
    runs.sort(key=lambda r: (str(r["finished_at"]), r["stage"]))
    rejections = _read(driver, "stages/count_rejections_by_reason", database, stage=None)
    title = "Records kept and rejected per stage"
    if not runs and not rejections:
        return Section(title, "No stage has run yet (no StageRun nodes).")
    fig, axes = _figure(11, max(3.0, 0.45 * max(len(runs), len(rejections), 4)), ncols=2)
    ax1, ax2 = axes
    names = [r["stage"] for r in runs]
    kept = [int(r["kept"] or 0) for r in runs]
    rejected = [int(r["rejected"] or 0) for r in runs]
    kept_bars = ax1.barh(names, kept, color=KEPT, label="kept")
    rejected_bars = ax1.barh(names, rejected, left=kept, color=REJECTED, label="rejected")
    ax1.bar_label(kept_bars, labels=[str(k) if k else "" for k in kept], label_type="center")
    ax1.bar_label(rejected_bars, labels=[str(r) if r else "" for r in rejected], padding=2)
    ax1.set_xlabel("records (latest run of each stage that kept something)")
    ax1.set_title("kept vs rejected per stage")
    ax1.invert_yaxis()
    ax1.legend(loc="lower right")
    labels = [f"{r['stage']}: {r['reason']}" for r in rejections][:25]
    reason_bars = ax2.barh(labels, [int(r["n"]) for r in rejections][:25], color=REJECTED)
    ax2.bar_label(reason_bars, padding=2)
    ax2.set_xlabel("rejected records")
    ax2.set_title("rejections by stage and reason")
    ax2.invert_yaxis()
    if not labels:
        ax2.text(0.5, 0.5, "no rejections", ha="center", transform=ax2.transAxes)
    fig.tight_layout()
    text = (
        f"{len(runs)} stages ran; {sum(kept)} records kept and {sum(rejected)} rejected in "
        "the latest run of each stage that kept something (a re-run that only skips finished "
        "work is not drawn). Right: every rejection reason (from the Rejection nodes)."
    )
    warnings = [
        f"{r['stage']}: the latest run ({r['last_at'][:19]}) kept nothing and rejected "
        f"{r['last_rejected']}" + ("" if r["has_good"] else " (no run of it kept anything)")
        for r in runs
        if not r["last_kept"] and r["last_rejected"]
    ]
    if warnings:
        text += " Attention: " + "; ".join(warnings) + "."
    return Section(title, text, _png(fig))


def tasks_section(driver: neo4j.Driver, database: str | None) -> Section:
    rows = _read(driver, "report/count_tasks", database)
    title = "Tasks per kind and variant"
    if not rows:
        return Section(title, "No tasks yet (the WebLeaper/WebShaper stages have not run).")
    fig, ax = _figure(8, 3.5)
    groups = sorted({f"{r['kind']}/{r['variant']}" for r in rows})
    by: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        by[r["status"] or "kept"][f"{r['kind']}/{r['variant']}"] += int(r["n"])
    left = [0] * len(groups)
    for status, color in (("kept", KEPT), ("rejected", REJECTED)):
        values = [by[status][g] for g in groups]
        ax.barh(groups, values, left=left, color=color, label=status)
        left = [a + b for a, b in zip(left, values, strict=True)]
    ax.set_xlabel("tasks")
    ax.invert_yaxis()
    ax.legend(loc="lower right")
    total = sum(int(r["n"]) for r in rows)
    return Section(title, f"{total} tasks in the graph, by kind/variant and status.", _png(fig))


def targets_section(driver: neo4j.Driver, database: str | None) -> Section:
    rows = _read(driver, "report/find_target_counts", database)
    title = "|R| (targets per task) by WebLeaper variant"
    if not rows:
        return Section(title, "No kept WebLeaper tasks yet.")
    by: dict[str, list[int]] = defaultdict(list)
    for r in rows:
        by[r["variant"] or "?"].append(int(r["n_targets"] or 0))
    variants = sorted(by)
    fig, ax = _figure(8, 3.5)
    ax.boxplot([by[v] for v in variants], showmeans=True)
    ax.set_xticks(range(1, len(variants) + 1), [f"{v}\n(n={len(by[v])})" for v in variants])
    for i, v in enumerate(variants, start=1):
        ax.scatter([i] * len(by[v]), by[v], s=10, alpha=0.5, color="#333333")
    ax.set_ylabel("|R|")
    stats = "; ".join(
        f"{v}: mean {sum(by[v]) / len(by[v]):.1f}, max {max(by[v])}" for v in variants
    )
    return Section(title, f"Size of the target set R of each kept task. {stats}.", _png(fig))


def kp_section(driver: neo4j.Driver, database: str | None, published: list[int] | None) -> Section:
    rows = _read(driver, "report/find_kp_triple_counts", database)
    ours = [int(r["n_triples"]) for r in rows]
    title = "Triples per KP task, ours beside the published WebShaper 500"
    if not ours and not published:
        return Section(title, "No KP tasks yet and the published 500 are not available.")
    fig, ax = _figure(8, 3.5)
    top = max(ours + (published or []) + [1])
    bins = [b - 0.5 for b in range(0, top + 2)]
    if published:
        ax.hist(
            published,
            bins=bins,
            density=True,
            alpha=0.55,
            color="#7F7F7F",
            label=f"published 500 (n={len(published)})",
        )
    if ours:
        ax.hist(
            ours,
            bins=bins,
            density=True,
            alpha=0.65,
            color="#E69F00",
            label=f"ours (n={len(ours)})",
        )
    ax.set_xlabel("triples per task")
    ax.set_ylabel("share of tasks")
    ax.legend()
    parts = []
    if ours:
        parts.append(f"ours: {len(ours)} tasks, mean {sum(ours) / len(ours):.1f} triples")
    else:
        parts.append("no KP tasks of ours yet")
    if published:
        parts.append(f"published: mean {sum(published) / len(published):.1f}")
    else:
        parts.append("the published 500 (shared/data/webshaper/webshaper.500.jsonl) are absent")
    return Section(title, "; ".join(parts) + ".", _png(fig))


def isr_section(driver: neo4j.Driver, database: str | None, limits: tuple[float, float]) -> Section:
    rows = [
        r
        for r in _read(driver, "report/find_rollout_metrics", database)
        if r["isr"] is not None and not r["pruned"]
    ]
    title = "ISR vs ISE per trajectory, with the filter's thresholds"
    alpha, beta = limits
    if not rows:
        return Section(title, "No scored rollouts yet (the score stage has not run).")
    fig, ax = _figure(7, 4.5)
    for verdict, color in ((True, KEPT), (False, REJECTED), (None, "#999999")):
        pts = [r for r in rows if r["kept"] is verdict]
        if pts:
            name = {True: "kept", False: "rejected", None: "not filtered"}[verdict]
            ax.scatter(
                [float(r["isr"]) for r in pts],
                [float(r["ise"] or 0.0) for r in pts],
                color=color,
                alpha=0.7,
                s=22,
                label=f"{name} ({len(pts)})",
            )
    ax.axvline(alpha, color="#444444", linestyle="--")
    ax.axhline(beta, color="#444444", linestyle=":")
    ax.text(alpha, 1.02, f" ISR > α = {alpha}", transform=ax.get_xaxis_transform(), fontsize=9)
    ax.text(
        1.0,
        beta,
        f" ISE > β = {beta}",
        transform=ax.get_yaxis_transform(),
        fontsize=9,
        va="bottom",
        ha="right",
    )
    ax.set_xlabel("ISR (share of targets revealed)")
    ax.set_ylabel("ISE (targets revealed per action)")
    ax.set_xlim(-0.02, 1.05)
    ax.legend(loc="upper left", fontsize=8)
    above = sum(1 for r in rows if float(r["isr"]) > alpha and float(r["ise"] or 0) > beta)
    return Section(
        title,
        f"{len(rows)} scored trajectories; {above} pass both thresholds "
        f"(ISR > {alpha}, ISE > {beta}); upper-right region is kept.",
        _png(fig),
    )


def pruning_section(driver: neo4j.Driver, database: str | None) -> Section:
    rows = [
        r
        for r in _read(driver, "report/find_rollout_metrics", database)
        if r["pruned"] and r["original_id"] is not None
    ]
    title = "Rounds and tokens before and after pruning"
    if not rows:
        return Section(title, "No pruned trajectories yet (the prune stage has not run).")
    fig, axes = _figure(10, 3.8, ncols=2)
    for ax, key, name in ((axes[0], "rounds", "rounds"), (axes[1], "tokens", "tokens")):
        before = [float(r[f"original_{key}"] or 0) for r in rows]
        after = [float(r[key] or 0) for r in rows]
        for b, a in zip(before, after, strict=True):
            ax.plot([0, 1], [b, a], color="#BBBBBB", linewidth=0.8)
        ax.boxplot([before, after], positions=[0, 1], widths=0.35)
        ax.set_xticks(
            [0, 1],
            [
                f"before\nmean {sum(before) / len(before):.1f}",
                f"after pruning\nmean {sum(after) / len(after):.1f}",
            ],
        )
        ax.set_ylabel(name)
        ax.set_title(f"{name} per trajectory")
    fig.tight_layout()
    saved = [
        1 - float(r["tokens"] or 0) / float(r["original_tokens"])
        for r in rows
        if r["original_tokens"]
    ]
    text = f"{len(rows)} pruned trajectories, each line joins a trajectory to its pruned copy"
    if saved:
        text += f"; tokens saved: mean {100 * sum(saved) / len(saved):.0f}%"
    return Section(title, text + ".", _png(fig))


def _curve(metrics: Any) -> list[tuple[float, float]]:
    """(step, loss) points from a run's metrics: a log history list or a `loss` list."""
    if isinstance(metrics, dict):
        for key in ("log_history", "history", "logs"):
            if isinstance(metrics.get(key), list):
                return _curve(metrics[key])
        if isinstance(metrics.get("loss"), list):
            return [(float(i), float(v)) for i, v in enumerate(metrics["loss"])]
        return []
    if isinstance(metrics, list):
        points = []
        for i, item in enumerate(metrics):
            if isinstance(item, dict) and isinstance(item.get("loss"), int | float):
                points.append((float(item.get("step", i)), float(item["loss"])))
        return points
    return []


def training_section(driver: neo4j.Driver, database: str | None) -> Section:
    rows = _read(driver, "report/find_training_runs", database)
    title = "Training curves"
    curves = []
    for r in rows:
        try:
            points = _curve(json.loads(r["metrics_json"] or "null"))
        except json.JSONDecodeError:
            points = []
        if points:
            curves.append((f"{r['kind']} {r['run_id']}", points))
    if not curves:
        return Section(
            title,
            "No training runs with logged losses yet (run `seekgraph pipeline --with-training`).",
        )
    fig, ax = _figure(8, 3.8)
    for name, points in curves:
        ax.plot([p[0] for p in points], [p[1] for p in points], marker=".", label=name)
    ax.set_xlabel("step")
    ax.set_ylabel("training loss")
    ax.legend(fontsize=8)
    return Section(title, f"{len(curves)} training run(s).", _png(fig))


def build_report(
    driver: neo4j.Driver,
    database: str | None = None,
    published_path: Path | None = None,
) -> Report:
    """Every section of the report, in reading order."""
    report = Report()
    report.sections = [
        stages_section(driver, database),
        tasks_section(driver, database),
        targets_section(driver, database),
        kp_section(driver, database, published_triple_counts(published_path)),
        isr_section(driver, database, thresholds(driver, database)),
        pruning_section(driver, database),
        training_section(driver, database),
    ]
    return report


def render(report: Report) -> str:
    """The report as one HTML page (images inline)."""
    parts = []
    for s in report.sections:
        img = (
            f'<img class="plot" alt="{html.escape(s.title)}" src="data:image/png;base64,{s.image}">'
            if s.image
            else ""
        )
        cls = "section" if s.image else "section empty"
        parts.append(
            f'<section class="{cls}"><h2>{html.escape(s.title)}</h2>'
            f"<p>{html.escape(s.text)}</p>{img}</section>"
        )
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        "<title>seekgraph report</title><style>"
        "body{font-family:DejaVu Sans,Arial,sans-serif;max-width:1150px;margin:20px auto;"
        "color:#222;padding:0 12px}h1{font-size:22px}h2{font-size:17px;margin-bottom:4px}"
        "section{border-top:1px solid #ddd;padding:8px 0}section.empty p{color:#777}"
        "img.plot{max-width:100%}</style></head><body>"
        f"<h1>seekgraph report</h1><p>Generated {stamp}; {report.n_plots} plots. Every number "
        "comes from the graph (StageRun, Rejection, Task, Rollout and TrainingRun nodes).</p>"
        + "".join(parts)
        + "</body></html>\n"
    )


def write_report(
    driver: neo4j.Driver,
    path: Path,
    database: str | None = None,
    published_path: Path | None = None,
) -> Report:
    report = build_report(driver, database, published_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(report), encoding="utf-8")
    return report


@dataclass(frozen=True)
class ReportConfig:
    """Settings of the `report` stage (config section ``[report]``)."""

    html: Path | None = option(None, "The HTML file to write (default: <out>/report.html).")
    published: Path | None = option(
        None, "webshaper.500.jsonl to compare KP tasks with (default: ../shared/data's)."
    )


def run_report(ctx: StageContext, config: ReportConfig) -> StageReport:
    """Write the report (re-running just rewrites the file)."""
    stage = StageReport("report")
    path = config.html or ctx.out_dir / "report.html"
    report = write_report(ctx.driver, path, ctx.database, config.published)
    stage.keep(report.n_plots)
    empty = [s.title for s in report.sections if not s.image]
    if empty:
        stage.notes["sections without data"] = len(empty)
    stage.notes["report"] = str(path.resolve())
    return stage
