"""The report's sections on how the data was made: records kept and rejected and seconds per
stage, the ISR/ISE filter, pruning and training."""

from __future__ import annotations

import json
from typing import Any

import neo4j

from seekgraph.viz import report_plots as plot
from seekgraph.viz.report_data import Section, read_rows


def stages_section(driver: neo4j.Driver, database: str | None) -> Section:
    runs = read_rows(driver, "report/find_stage_runs", database)
    runs.sort(key=lambda r: (str(r["finished_at"]), r["stage"]))
    rejections = read_rows(driver, "stages/count_rejections_by_reason", database, stage=None)
    title = "Records kept and rejected per stage"
    if not runs and not rejections:
        return Section(title, "No stage has run yet (no StageRun nodes).")
    fig, axes = plot.figure(11, max(3.0, 0.45 * max(len(runs), len(rejections), 4)), ncols=2)
    ax1, ax2 = axes
    names = [r["stage"] for r in runs]
    kept = [int(r["kept"] or 0) for r in runs]
    rejected = [int(r["rejected"] or 0) for r in runs]
    ax1.barh(names, kept, color=plot.KEPT, label="kept")
    ax1.barh(names, rejected, left=kept, color=plot.REJECTED, label="rejected")
    plot.label_stacks(ax1, names, [[k, r] for k, r in zip(kept, rejected, strict=True)])
    ax1.margins(x=0.15)
    ax1.set_xlabel("records (latest run of each stage that kept something)")
    ax1.set_title("kept vs rejected per stage")
    ax1.invert_yaxis()
    ax1.legend(loc="lower right")
    labels = [f"{r['stage']}: {r['reason']}" for r in rejections][:25]
    reason_bars = ax2.barh(labels, [int(r["n"]) for r in rejections][:25], color=plot.REJECTED)
    plot.label_bars(ax2, reason_bars)
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
    return Section(title, text, plot.png(fig))


def seconds_section(driver: neo4j.Driver, database: str | None) -> Section:
    runs = [r for r in read_rows(driver, "report/find_stage_runs", database) if r["seconds"]]
    runs.sort(key=lambda r: (str(r["finished_at"]), r["stage"]))
    title = "Seconds per stage"
    if not runs:
        return Section(title, "No stage has run yet.")
    fig, ax = plot.figure(8, max(2.5, 0.35 * len(runs)))
    bars = ax.barh([r["stage"] for r in runs], [float(r["seconds"]) for r in runs], color="#0072B2")
    plot.label_bars(ax, bars, "{:.1f}")
    ax.invert_yaxis()
    ax.set_xlabel("seconds (the run drawn above)")
    fig.tight_layout()
    total = sum(float(r["seconds"]) for r in runs)
    slow = max(runs, key=lambda r: float(r["seconds"]))
    return Section(
        title,
        f"{total:.0f} s over {len(runs)} stages; the slowest is {slow['stage']} "
        f"({float(slow['seconds']):.0f} s).",
        plot.png(fig),
    )


def isr_section(driver: neo4j.Driver, database: str | None, limits: tuple[float, float]) -> Section:
    rows = [
        r
        for r in read_rows(driver, "report/find_rollout_metrics", database)
        if r["isr"] is not None and not r["pruned"]
    ]
    title = "ISR vs ISE per trajectory, with the filter's thresholds"
    alpha, beta = limits
    if not rows:
        return Section(title, "No scored rollouts yet (the score stage has not run).")
    fig, ax = plot.figure(7, 4.5)
    for verdict, color in ((True, plot.KEPT), (False, plot.REJECTED), (None, "#999999")):
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
        plot.png(fig),
    )


def change(before: int, after: int) -> str:
    """`before -> after (+x.x%)`: how the prune stage's summary states a change, so the report
    and the stage print the same line for the same numbers."""
    return f"{before} -> {after} ({100 * (after - before) / max(before, 1):+.1f}%)"


def pruning_section(driver: neo4j.Driver, database: str | None) -> Section:
    rows = [
        r
        for r in read_rows(driver, "report/find_rollout_metrics", database)
        if r["pruned"] and r["original_id"] is not None
    ]
    title = "Rounds and tokens before and after pruning"
    if not rows:
        return Section(title, "No pruned trajectories yet (the prune stage has not run).")
    fig, axes = plot.figure(10, 3.8, ncols=2)
    sums = {}
    for ax, key, name in ((axes[0], "rounds", "rounds"), (axes[1], "tokens", "tokens")):
        before = [int(r[f"original_{key}"] or 0) for r in rows]
        after = [int(r[key] or 0) for r in rows]
        sums[key] = (sum(before), sum(after))
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
    text = (
        f"{len(rows)} pruned trajectories, each line joins a trajectory to its pruned copy; "
        f"rounds {change(*sums['rounds'])}, tokens {change(*sums['tokens'])} (the wire "
        "format's one count, as the prune stage and `seekgraph viz trajectory` state it)"
    )
    return Section(title, text + ".", plot.png(fig))


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
    rows = read_rows(driver, "report/find_training_runs", database)
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
    fig, ax = plot.figure(8, 3.8)
    for name, points in curves:
        ax.plot([p[0] for p in points], [p[1] for p in points], marker=".", label=name)
    ax.set_xlabel("step")
    ax.set_ylabel("training loss")
    ax.legend(fontsize=8)
    return Section(title, f"{len(curves)} training run(s).", plot.png(fig))
