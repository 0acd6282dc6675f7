"""`seekgraph report`: the page a researcher reads first, one HTML file over the whole graph.

It opens with the funnel of each task variant (tasks -> rollouts -> kept -> pruned ->
examples) and the dataset's composition, then the distributions (answers per task, |R|, ISR,
ISE, F1, question length), one example task per variant with links to its pictures and to
Neo4j Browser, and the bookkeeping (records and seconds per stage, rejections, KP tasks beside
the published ones, pruning, training). Each section reads plain rows with a query from
`seekgraph/cypher/report/` and draws one matplotlib figure, embedded as a base64 PNG; every bar carries
its number. Rounds and tokens are the values the rollout and prune stages stored (the wire
format's one count), so the report says what the stage summaries said. A section whose data
does not exist yet says so in a sentence instead of drawing an empty plot, so the report is
useful after any prefix of the pipeline.
"""

from __future__ import annotations

import base64
import html
import io
import json
import os
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import neo4j

from seekgraph.agent.config import policy_label
from seekgraph.common.answers import gold_records
from seekgraph.common.config import option
from seekgraph.graphdb import cypher
from seekgraph.graphdb.stages import StageContext, StageReport, last_notes

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
    table: tuple[list[str], list[list[str]]] | None = None  # headers, rows of escaped HTML


@dataclass
class Report:
    sections: list[Section] = field(default_factory=list)

    @property
    def n_plots(self) -> int:
        return sum(1 for s in self.sections if s.image)


@dataclass(frozen=True)
class Links:
    """Where the example table's links go: the folder for the viz pages (None: no pages) and
    Neo4j Browser's addresses (empty: no Browser links)."""

    viz_dir: Path | None = None
    http_url: str = ""
    bolt_uri: str = ""
    username: str = "neo4j"


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
    from seekgraph.agent.config import FilterConfig

    notes = last_notes(driver, "filter", database)
    default = FilterConfig()
    return float(notes.get("alpha", default.alpha)), float(notes.get("beta", default.beta))


def _read(
    driver: neo4j.Driver, name: str, database: str | None, **params: Any
) -> list[dict[str, Any]]:
    """`seekgraph.cypher.read` without server notifications (labels of later stages may not exist yet)."""
    text = cypher.query(name)

    def work(tx: neo4j.ManagedTransaction) -> list[dict[str, Any]]:
        return [record.data() for record in tx.run(text, params)]

    with driver.session(
        database=database, notifications_min_severity=neo4j.NotificationMinimumSeverity.OFF
    ) as s:
        return s.execute_read(work)


# --- sections -------------------------------------------------------------------------------


def _label(ax: Any, bars: Any, fmt: str = "{:g}") -> None:
    """Write each non-empty bar's number at its end (every bar of the report carries one)."""
    ax.bar_label(
        bars, labels=[fmt.format(v) if v else "" for v in bars.datavalues], padding=2, fontsize=8
    )


def _stack_label(ax: Any, ys: list[Any], parts: list[list[int]]) -> None:
    """Numbers of stacked horizontal bars, as "kept + rejected" at the end of each row (a
    number inside a thin segment is unreadable)."""
    for y, values in zip(ys, parts, strict=True):
        text = " + ".join(str(v) for v in values if v)
        if text:
            ax.annotate(
                text,
                (sum(values), y),
                xytext=(3, 0),
                textcoords="offset points",
                va="center",
                fontsize=8,
            )


def _variants(rows: list[dict[str, Any]]) -> list[str]:
    order = {"basic": 0, "union": 1, "reverse-union": 2, "kp": 3}
    return sorted({str(r["variant"] or "?") for r in rows}, key=lambda v: (order.get(v, 9), v))


FUNNEL = (
    ("tasks", "kept tasks"),
    ("rollouts", "rollouts"),
    ("kept", "kept by the filter"),
    ("pruned", "pruned copies"),
    ("examples", "dataset examples"),
)
FUNNEL_COLORS = ("#D55E00", "#8E6BBF", "#009E73", "#999999", "#17BECF")


def funnel_section(driver: neo4j.Driver, database: str | None) -> Section:
    rows = _read(driver, "report/find_variant_funnel", database)
    title = "Funnel per task variant: tasks -> rollouts -> kept -> pruned -> examples"
    if not rows:
        return Section(title, "No kept tasks yet (the WebLeaper/WebShaper stages have not run).")
    by = {str(r["variant"]): r for r in rows}
    variants = _variants(rows)
    fig, ax = _figure(10, 0.9 + 0.55 * len(variants) * len(FUNNEL) / 2)
    height = 0.8 / len(FUNNEL)
    for k, ((key, name), color) in enumerate(zip(FUNNEL, FUNNEL_COLORS, strict=True)):
        ys = [i + (k - (len(FUNNEL) - 1) / 2) * height for i in range(len(variants))]
        bars = ax.barh(
            ys, [int(by[v][key] or 0) for v in variants], height, color=color, label=name
        )
        _label(ax, bars)
    ax.set_yticks(range(len(variants)), variants)
    ax.invert_yaxis()
    ax.set_xlabel("count")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    fig.tight_layout()
    totals = {key: sum(int(r[key] or 0) for r in rows) for key, _ in FUNNEL}
    table = (
        ["variant", *[name for _, name in FUNNEL]],
        [[html.escape(v), *[str(int(by[v][k] or 0)) for k, _ in FUNNEL]] for v in variants]
        + [["<b>all</b>", *[f"<b>{totals[k]}</b>" for k, _ in FUNNEL]]],
    )
    text = (
        f"{totals['tasks']} kept tasks gave {totals['rollouts']} rollouts; the filter kept "
        f"{totals['kept']}, pruning made {totals['pruned']} shorter copies, and the latest "
        f"dataset holds {totals['examples']} examples."
    )
    return Section(title, text, _png(fig), table)


def composition_section(driver: neo4j.Driver, database: str | None) -> Section:
    rows = _read(driver, "report/find_dataset_composition", database)
    title = "Dataset composition: examples per task variant, pruned or original trajectory"
    if not rows:
        return Section(title, "No dataset yet (the dataset stage has not run).")
    variants = _variants(rows)
    fig, ax = _figure(8, 0.8 + 0.5 * len(variants))
    left = [0] * len(variants)
    stacks: list[list[int]] = [[] for _ in variants]
    for pruned, name, color in ((True, "pruned", "#009E73"), (False, "original", "#8E6BBF")):
        values = [
            sum(int(r["n"]) for r in rows if r["variant"] == v and bool(r["pruned"]) is pruned)
            for v in variants
        ]
        ax.barh(variants, values, left=left, color=color, label=name)
        for stack, v in zip(stacks, values, strict=True):
            stack.append(v)
        left = [a + b for a, b in zip(left, values, strict=True)]
    _stack_label(ax, variants, stacks)
    ax.margins(x=0.12)
    ax.invert_yaxis()
    ax.set_xlabel("examples")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    fig.tight_layout()
    total = sum(int(r["n"]) for r in rows)
    n_pruned = sum(int(r["n"]) for r in rows if r["pruned"])
    return Section(
        title,
        f"Dataset {rows[0]['dataset']} ({rows[0]['mix']}): {total} examples, {n_pruned} of them "
        "pruned trajectories.",
        _png(fig),
    )


def _hist(ax: Any, values: list[float], title: str, bins: Any, color: str) -> None:
    if not values:
        ax.text(0.5, 0.5, "no data yet", ha="center", transform=ax.transAxes)
        ax.set_title(title, fontsize=10)
        return
    _, _, bars = ax.hist(values, bins=bins, color=color, edgecolor="white")
    _label(ax, bars, "{:.0f}")
    mean = sum(values) / len(values)
    ax.set_title(f"{title}\nn={len(values)}, mean {mean:.2f}", fontsize=10)
    ax.set_ylabel("count", fontsize=8)


def _int_bins(values: list[float], most: int = 20) -> Any:
    """Bins one integer wide, or `most` equal bins for a wide range."""
    if not values:
        return 10
    low, high = int(min(values)), int(max(values))
    if high - low + 1 <= most:
        return [b - 0.5 for b in range(low, high + 2)]
    return most


def distributions_section(driver: neo4j.Driver, database: str | None) -> Section:
    tasks = _read(driver, "report/find_task_metrics", database)
    rollouts = [
        r
        for r in _read(driver, "report/find_rollout_metrics", database)
        if r["isr"] is not None and not r["pruned"]
    ]
    title = "Distributions: answers per task, |R|, ISR, ISE, F1, question length"
    if not tasks and not rollouts:
        return Section(title, "No tasks and no scored rollouts yet.")
    answers = [float(len(gold_records(t["answer_json"]))) for t in tasks]
    targets = [float(t["n_targets"] or 0) for t in tasks if t["kind"] == "leaper"]
    words = [float(len(str(t["question"] or "").split())) for t in tasks]
    isr = [float(r["isr"]) for r in rollouts]
    ise = [float(r["ise"] or 0.0) for r in rollouts]
    f1 = [float(r["f1"]) for r in rollouts if r["f1"] is not None]
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 3, figsize=(12, 6.5))
    unit = [i / 10 for i in range(11)]
    _hist(axes[0][0], answers, "answers per task (gold records)", _int_bins(answers), "#D55E00")
    _hist(axes[0][1], targets, "|R| per WebLeaper task", _int_bins(targets, 12), "#E69F00")
    _hist(axes[0][2], words, "question length (words)", _int_bins(words, 12), "#56B4E9")
    _hist(axes[1][0], isr, "ISR per trajectory", unit, "#009E73")
    _hist(axes[1][1], ise, "ISE per trajectory", 10, "#0072B2")
    _hist(axes[1][2], f1, "F1 per trajectory", unit, "#CC79A7")
    fig.tight_layout()
    policies = Counter(policy_label(str(r["policy"] or "")) for r in rollouts)
    text = (
        f"{len(tasks)} kept tasks and {len(rollouts)} scored trajectories (originals, not "
        f"pruned copies; policies: {', '.join(f'{k}: {v}' for k, v in sorted(policies.items()))}"
        "); each bar says how many fall in it."
    )
    return Section(title, text, _png(fig))


def _page_link(path: Path | None, viz_dir: Path | None, text: str) -> str:
    if path is None or viz_dir is None:
        return ""
    return f'<a href="{html.escape(viz_dir.name + "/" + path.name)}">{html.escape(text)}</a>'


def _example_pages(
    driver: neo4j.Driver, database: str | None, row: dict[str, Any], viz_dir: Path
) -> dict[str, Path]:
    """The viz pages of one example (answers, picture, trajectory), written into `viz_dir`."""
    from seekgraph.viz import graphs
    from seekgraph.viz.answers import load_answers, write_answers_html
    from seekgraph.viz.errors import VizError
    from seekgraph.viz.html import write_html

    def stem(kind: str, subject: str) -> str:
        return f"{kind}-{re.sub(r'[^A-Za-z0-9._-]+', '_', subject)[:80]}.html"

    pages: dict[str, Path] = {}
    task_id = str(row["task_id"])
    try:
        view = load_answers(driver, database, task_id)
        pages["answers"] = write_answers_html(view, viz_dir / stem("answers", task_id))
        kind = "kp" if row["kind"] == "shaper" else "task"
        vg = graphs.load(
            driver, kind, task_id, database, options=graphs.Options(max_anchors=4, max_answers=20)
        )
        pages["picture"] = write_html(vg, viz_dir / stem(kind, task_id))
        if row["rollout_id"]:
            kind = "trajectory" if row["has_state_graph"] else "steps"
            vg = graphs.load(driver, kind, str(row["rollout_id"]), database)
            pages["trajectory"] = write_html(vg, viz_dir / stem(kind, str(row["rollout_id"])))
    except VizError:
        pass  # a picture that cannot be drawn is left out of the table, not the report
    return pages


def examples_section(driver: neo4j.Driver, database: str | None, links: Links) -> Section:
    from seekgraph.viz.browser_guide import TABLE_VIEW, browser_url, query_for

    rows = _read(driver, "report/find_examples", database)
    title = "One example task per variant, with its pictures and Neo4j Browser"
    if not rows:
        return Section(title, "No kept tasks yet.")
    table_rows = []
    for row in rows:
        pages = (
            _example_pages(driver, database, row, links.viz_dir)
            if links.viz_dir is not None
            else {}
        )
        viz = " · ".join(
            x
            for x in (
                _page_link(pages.get("answers"), links.viz_dir, "answers"),
                _page_link(pages.get("picture"), links.viz_dir, "picture"),
                _page_link(pages.get("trajectory"), links.viz_dir, "trajectory"),
            )
            if x
        )
        browser = ""
        if links.http_url and links.bolt_uri:
            name = "explore/show_kp_task" if row["kind"] == "shaper" else "explore/show_leaper_task"
            parts = [(query_for(name), row["task_id"], "graph")]
            parts.append((query_for(TABLE_VIEW[name]), row["task_id"], "table"))
            if row["rollout_id"]:
                steps = (
                    "explore/show_trajectory"
                    if row["has_state_graph"]
                    else ("explore/show_rollout_steps")
                )
                parts.append((query_for(steps), row["rollout_id"], "rollout"))
            browser = " · ".join(
                f'<a href="{html.escape(browser_url(links.http_url, links.bolt_uri, q, i, links.username))}">{t}</a>'
                for q, i, t in parts
            )
        question = str(row["question"] or "")
        rollout = (
            f"{html.escape(str(row['rollout_id']))} ({row['rounds']} rounds, {row['tokens']} tokens"
            + (", pruned copy" if row["pruned_id"] else "")
            + ")"
            if row["rollout_id"]
            else "none"
        )
        table_rows.append(
            [
                html.escape(str(row["variant"])),
                f"<code>{html.escape(str(row['task_id']))}</code>",
                html.escape(question[:220] + ("…" if len(question) > 220 else "")),
                str(len(gold_records(row["answer_json"]))),
                str(row["n_targets"] or ""),
                rollout,
                viz or "–",
                browser or "–",
            ]
        )
    headers = ["variant", "task", "question", "answers", "|R|", "rollout", "pictures", "Browser"]
    text = (
        "Pictures are files next to the report (answers: the gold records and the rows proving "
        "them; picture: the task's graph; trajectory: its state graph)."
        + (
            ""
            if links.http_url
            else " Browser links need the server's address (report --browser-http/--browser-bolt)."
        )
    )
    return Section(title, text, table=(headers, table_rows))


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
    ax1.barh(names, kept, color=KEPT, label="kept")
    ax1.barh(names, rejected, left=kept, color=REJECTED, label="rejected")
    _stack_label(ax1, names, [[k, r] for k, r in zip(kept, rejected, strict=True)])
    ax1.margins(x=0.15)
    ax1.set_xlabel("records (latest run of each stage that kept something)")
    ax1.set_title("kept vs rejected per stage")
    ax1.invert_yaxis()
    ax1.legend(loc="lower right")
    labels = [f"{r['stage']}: {r['reason']}" for r in rejections][:25]
    reason_bars = ax2.barh(labels, [int(r["n"]) for r in rejections][:25], color=REJECTED)
    _label(ax2, reason_bars)
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


def seconds_section(driver: neo4j.Driver, database: str | None) -> Section:
    runs = [r for r in _read(driver, "report/find_stage_runs", database) if r["seconds"]]
    runs.sort(key=lambda r: (str(r["finished_at"]), r["stage"]))
    title = "Seconds per stage"
    if not runs:
        return Section(title, "No stage has run yet.")
    fig, ax = _figure(8, max(2.5, 0.35 * len(runs)))
    bars = ax.barh([r["stage"] for r in runs], [float(r["seconds"]) for r in runs], color="#0072B2")
    _label(ax, bars, "{:.1f}")
    ax.invert_yaxis()
    ax.set_xlabel("seconds (the run drawn above)")
    fig.tight_layout()
    total = sum(float(r["seconds"]) for r in runs)
    slow = max(runs, key=lambda r: float(r["seconds"]))
    return Section(
        title,
        f"{total:.0f} s over {len(runs)} stages; the slowest is {slow['stage']} "
        f"({float(slow['seconds']):.0f} s).",
        _png(fig),
    )


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
    _stack_label(ax, groups, [[by["kept"][g], by["rejected"][g]] for g in groups])
    ax.margins(x=0.12)
    ax.set_xlabel("tasks")
    ax.invert_yaxis()
    ax.legend(loc="lower right")
    total = sum(int(r["n"]) for r in rows)
    return Section(title, f"{total} tasks in the graph, by kind/variant and status.", _png(fig))


def kp_section(driver: neo4j.Driver, database: str | None, published: list[int] | None) -> Section:
    rows = _read(driver, "report/find_kp_triple_counts", database)
    ours = [int(r["n_triples"]) for r in rows]
    title = "Triples per KP task, ours beside the published WebShaper 500"
    if not ours and not published:
        return Section(title, "No KP tasks yet and the published 500 are not available.")
    fig, ax = _figure(9, 3.8)
    top = max(ours + (published or []) + [1])
    xs = list(range(0, top + 1))
    width = 0.4
    for k, (values, name, color) in enumerate(
        ((published or [], "published 500", "#7F7F7F"), (ours, "ours", "#E69F00"))
    ):
        if not values:
            continue
        shares = [100 * values.count(x) / len(values) for x in xs]
        bars = ax.bar(
            [x + (k - 0.5) * width for x in xs],
            shares,
            width,
            color=color,
            label=f"{name} (n={len(values)})",
        )
        _label(ax, bars, "{:.0f}")
    ax.set_xlabel("triples per task")
    ax.set_ylabel("% of tasks")
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
    return Section(title, "; ".join(parts) + " (bars: % of each set's tasks).", _png(fig))


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


def change(before: int, after: int) -> str:
    """`before -> after (+x.x%)`: how the prune stage's summary states a change, so the report
    and the stage print the same line for the same numbers."""
    return f"{before} -> {after} ({100 * (after - before) / max(before, 1):+.1f}%)"


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
    links: Links | None = None,
) -> Report:
    """Every section of the report, in reading order: what the data is, then how it was made."""
    report = Report()
    report.sections = [
        funnel_section(driver, database),
        composition_section(driver, database),
        distributions_section(driver, database),
        examples_section(driver, database, links or Links()),
        stages_section(driver, database),
        seconds_section(driver, database),
        tasks_section(driver, database),
        kp_section(driver, database, published_triple_counts(published_path)),
        isr_section(driver, database, thresholds(driver, database)),
        pruning_section(driver, database),
        training_section(driver, database),
    ]
    return report


def _table_html(table: tuple[list[str], list[list[str]]]) -> str:
    headers, rows = table
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table class="data"><tr>{head}</tr>{body}</table>'


def render(report: Report) -> str:
    """The report as one HTML page (images inline; tables' cells are escaped HTML)."""
    parts = []
    for s in report.sections:
        img = (
            f'<img class="plot" alt="{html.escape(s.title)}" src="data:image/png;base64,{s.image}">'
            if s.image
            else ""
        )
        cls = "section" if s.image or s.table else "section empty"
        parts.append(
            f'<section class="{cls}"><h2>{html.escape(s.title)}</h2>'
            f"<p>{html.escape(s.text)}</p>{img}"
            + (_table_html(s.table) if s.table else "")
            + "</section>"
        )
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        "<title>seekgraph report</title><style>"
        "body{font-family:DejaVu Sans,Arial,sans-serif;max-width:1150px;margin:20px auto;"
        "color:#222;padding:0 12px}h1{font-size:22px}h2{font-size:17px;margin-bottom:4px}"
        "section{border-top:1px solid #ddd;padding:8px 0}section.empty p{color:#777}"
        "img.plot{max-width:100%}table.data{border-collapse:collapse;font-size:12px;"
        "margin:6px 0}table.data td,table.data th{border:1px solid #ccc;padding:2px 6px;"
        "vertical-align:top}table.data th{background:#f3f3f3}</style></head><body>"
        f"<h1>seekgraph report</h1><p>Generated {stamp}; {report.n_plots} plots. Every number "
        "comes from the graph (StageRun, Rejection, Task, Rollout, Dataset and TrainingRun "
        "nodes).</p>" + "".join(parts) + "</body></html>\n"
    )


def write_report(
    driver: neo4j.Driver,
    path: Path,
    database: str | None = None,
    published_path: Path | None = None,
    links: Links | None = None,
) -> Report:
    """Write the report to `path`; the example pictures go to `<folder of path>/viz/` unless
    `links` says otherwise."""
    path.parent.mkdir(parents=True, exist_ok=True)
    links = links or Links(viz_dir=path.parent / "viz")
    report = build_report(driver, database, published_path, links)
    path.write_text(render(report), encoding="utf-8")
    return report


@dataclass(frozen=True)
class ReportConfig:
    """Settings of the `report` stage (config section ``[report]``)."""

    html: Path | None = option(None, "The HTML file to write (default: <out>/report.html).")
    published: Path | None = option(
        None, "webshaper.500.jsonl to compare KP tasks with (default: ../shared/data's)."
    )
    browser_http: str = option(
        "", "Neo4j Browser's HTTP address for the report's links (default: the server's)."
    )
    browser_bolt: str = option(
        "", "The Bolt address those Browser links connect to (default: the server's)."
    )


def run_report(ctx: StageContext, config: ReportConfig) -> StageReport:
    """Write the report and the pictures of its examples (re-running rewrites them)."""
    stage = StageReport("report")
    path = config.html or ctx.out_dir / "report.html"
    links = Links(path.parent / "viz", config.browser_http, config.browser_bolt)
    report = write_report(ctx.driver, path, ctx.database, config.published, links)
    stage.keep(report.n_plots)
    empty = [s.title for s in report.sections if not s.image and not s.table]
    if empty:
        stage.notes["sections without data"] = len(empty)
    stage.notes["report"] = str(path.resolve())
    return stage
