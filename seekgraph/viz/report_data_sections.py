"""The report's sections on what the data is: the funnel of each task variant, the dataset's
composition, the distributions, the tasks per variant and the KP tasks beside the published ones."""

from __future__ import annotations

import html
from collections import Counter, defaultdict

import neo4j

from seekgraph.agent.config import policy_label
from seekgraph.common.answers import gold_records
from seekgraph.viz import report_plots as plot
from seekgraph.viz.report_data import Section, read_rows, variant_order

FUNNEL = (
    ("tasks", "kept tasks"),
    ("rollouts", "rollouts"),
    ("kept", "kept by the filter"),
    ("pruned", "pruned copies"),
    ("examples", "dataset examples"),
)


FUNNEL_COLORS = ("#D55E00", "#8E6BBF", "#009E73", "#999999", "#17BECF")


def funnel_section(driver: neo4j.Driver, database: str | None) -> Section:
    rows = read_rows(driver, "report/find_variant_funnel", database)
    title = "Funnel per task variant: tasks -> rollouts -> kept -> pruned -> examples"
    if not rows:
        return Section(title, "No kept tasks yet (the WebLeaper/WebShaper stages have not run).")
    by = {str(r["variant"]): r for r in rows}
    variants = variant_order(rows)
    fig, ax = plot.figure(10, 0.9 + 0.55 * len(variants) * len(FUNNEL) / 2)
    height = 0.8 / len(FUNNEL)
    for k, ((key, name), color) in enumerate(zip(FUNNEL, FUNNEL_COLORS, strict=True)):
        ys = [i + (k - (len(FUNNEL) - 1) / 2) * height for i in range(len(variants))]
        bars = ax.barh(
            ys, [int(by[v][key] or 0) for v in variants], height, color=color, label=name
        )
        plot.label_bars(ax, bars)
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
    return Section(title, text, plot.png(fig), table)


def composition_section(driver: neo4j.Driver, database: str | None) -> Section:
    rows = read_rows(driver, "report/find_dataset_composition", database)
    title = "Dataset composition: examples per task variant, pruned or original trajectory"
    if not rows:
        return Section(title, "No dataset yet (the dataset stage has not run).")
    variants = variant_order(rows)
    fig, ax = plot.figure(8, 0.8 + 0.5 * len(variants))
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
    plot.label_stacks(ax, variants, stacks)
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
        plot.png(fig),
    )


def distributions_section(driver: neo4j.Driver, database: str | None) -> Section:
    tasks = read_rows(driver, "report/find_task_metrics", database)
    rollouts = [
        r
        for r in read_rows(driver, "report/find_rollout_metrics", database)
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
    plot.hist(
        axes[0][0], answers, "answers per task (gold records)", plot.int_bins(answers), "#D55E00"
    )
    plot.hist(axes[0][1], targets, "|R| per WebLeaper task", plot.int_bins(targets, 12), "#E69F00")
    plot.hist(axes[0][2], words, "question length (words)", plot.int_bins(words, 12), "#56B4E9")
    plot.hist(axes[1][0], isr, "ISR per trajectory", unit, "#009E73")
    plot.hist(axes[1][1], ise, "ISE per trajectory", 10, "#0072B2")
    plot.hist(axes[1][2], f1, "F1 per trajectory", unit, "#CC79A7")
    fig.tight_layout()
    policies = Counter(policy_label(str(r["policy"] or "")) for r in rollouts)
    text = (
        f"{len(tasks)} kept tasks and {len(rollouts)} scored trajectories (originals, not "
        f"pruned copies; policies: {', '.join(f'{k}: {v}' for k, v in sorted(policies.items()))}"
        "); each bar says how many fall in it."
    )
    return Section(title, text, plot.png(fig))


def tasks_section(driver: neo4j.Driver, database: str | None) -> Section:
    rows = read_rows(driver, "report/count_tasks", database)
    title = "Tasks per kind and variant"
    if not rows:
        return Section(title, "No tasks yet (the WebLeaper/WebShaper stages have not run).")
    fig, ax = plot.figure(8, 3.5)
    groups = sorted({f"{r['kind']}/{r['variant']}" for r in rows})
    by: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        by[r["status"] or "kept"][f"{r['kind']}/{r['variant']}"] += int(r["n"])
    left = [0] * len(groups)
    for status, color in (("kept", plot.KEPT), ("rejected", plot.REJECTED)):
        values = [by[status][g] for g in groups]
        ax.barh(groups, values, left=left, color=color, label=status)
        left = [a + b for a, b in zip(left, values, strict=True)]
    plot.label_stacks(ax, groups, [[by["kept"][g], by["rejected"][g]] for g in groups])
    ax.margins(x=0.12)
    ax.set_xlabel("tasks")
    ax.invert_yaxis()
    ax.legend(loc="lower right")
    total = sum(int(r["n"]) for r in rows)
    return Section(title, f"{total} tasks in the graph, by kind/variant and status.", plot.png(fig))


def kp_section(driver: neo4j.Driver, database: str | None, published: list[int] | None) -> Section:
    rows = read_rows(driver, "report/find_kp_triple_counts", database)
    ours = [int(r["n_triples"]) for r in rows]
    title = "Triples per KP task, ours beside the published WebShaper 500"
    if not ours and not published:
        return Section(title, "No KP tasks yet and the published 500 are not available.")
    fig, ax = plot.figure(9, 3.8)
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
        plot.label_bars(ax, bars, "{:.0f}")
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
    return Section(title, "; ".join(parts) + " (bars: % of each set's tasks).", plot.png(fig))
