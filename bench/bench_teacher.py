"""The question-only teacher against the (privileged) gold walker on real tasks, with and without
injected detours: precision/recall/F1/ISR/ISE distributions, share rejected by the ISR/ISE filter
(α=0.3, β=0.1) and why, steps per second.

Runs against the graph in $NEO4J_URI, which must hold the shared corpus and WebLeaper/WebShaper
tasks (e.g. `seekgraph ingest …`, then the `leaper-trees` and `leaper-basic` stages). Rollouts
are written to that graph (policies `teacher` and `gold-walker`, models `question-v1-d<rate>`
and `gold-walker-d<rate>`).

    .venv/bin/python -m bench.bench_teacher --tasks 200 --detour-rate 0.3
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from pathlib import Path

from bench.common import Measurement, table, write_markdown
from seekgraph.agent.config import policy_label
from seekgraph.agent.filtering import FilterConfig, verdict
from seekgraph.agent.gold_walker import GoldWalkerPolicy
from seekgraph.agent.rollouts import ScriptedTeacher, TeacherRollouts, load_tasks, run_rollouts
from seekgraph.agent.scoring import score_rollouts
from seekgraph.agent.teacher import TeacherConfig, TeacherPolicy
from seekgraph.agent.web.tools import ToolBox, WebTools
from seekgraph.agent.web.wrappers import CachedTools, CutTools
from seekgraph.common.config import ConfigFile, resolve_settings
from seekgraph.graphdb.driver import open_driver


def quantiles(values: list[float]) -> str:
    if not values:
        return "n/a"
    v = sorted(values)

    def q(p: float) -> float:
        return v[min(len(v) - 1, round(p * (len(v) - 1)))]

    return (
        f"min {v[0]:.2f}  p10 {q(0.1):.2f}  p50 {q(0.5):.2f}  p90 {q(0.9):.2f}  "
        f"max {v[-1]:.2f}  mean {statistics.mean(v):.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tasks", type=int, default=200)
    parser.add_argument("--detour-rate", type=float, default=0.3)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--kind", default=None)
    parser.add_argument(
        "--observation-chars",
        type=int,
        default=0,
        help="cut every tool response to this many characters (experiment: 900; 0: whole)",
    )
    parser.add_argument(
        "--policies", default="teacher,gold-walker", help="comma-separated: teacher, gold-walker"
    )
    parser.add_argument("--about", default="", help="what the graph holds, for the note")
    args = parser.parse_args()
    driver = open_driver(resolve_settings(ConfigFile()).connection)
    database = None
    tasks = load_tasks(driver, database, kind=args.kind, limit=args.tasks)
    kinds = {f"{t.kind}/{t.variant}" for t in tasks}
    rows: list[Measurement] = []
    dist: list[str] = []
    for name in args.policies.split(","):
        for rate in (0.0, args.detour_rate):
            cached = CachedTools(WebTools(driver, database))
            tools: ToolBox = (
                CutTools(cached, args.observation_chars) if args.observation_chars else cached
            )
            config = TeacherConfig(detour_rate=rate)
            scripted: ScriptedTeacher = (
                GoldWalkerPolicy(driver, database, tools, config)
                if name == "gold-walker"
                else TeacherPolicy(tools, config)
            )
            cut = f"c{args.observation_chars}" if args.observation_chars else ""
            policy = TeacherRollouts(scripted, name=name, tag=cut)
            report = run_rollouts(
                driver, database, tasks, policy, n=1, concurrency=args.concurrency
            )
            steps = int(str(report.notes["steps"]))
            m = Measurement(f"{name} detour_rate={rate:g}", seconds=[report.seconds], items=steps)
            rows.append(m)
            score_rollouts(driver, database, policy=name, rescore=True)
            scored = [
                r
                for r in driver.execute_query(
                    "MATCH (r:Rollout {policy: $policy, model: $model}) "
                    "WHERE r.status = 'done' AND r.isr IS NOT NULL AND r.task_id IN $task_ids "
                    "AND coalesce(r.pruned, false) = false RETURN r.rollout_id AS id, "
                    "r.isr AS isr, r.ise AS ise, r.precision AS precision, r.recall AS recall, "
                    "r.f1 AS f1, r.termination AS termination",
                    policy=name,
                    model=policy.model,
                    task_ids=[t.task_id for t in tasks],
                    database_=database,
                ).records
            ]
            reasons = Counter(
                verdict(r["termination"], float(r["isr"]), float(r["ise"] or 0), FilterConfig())
                for r in scored
            )
            rejected = len(scored) - reasons.pop(None, 0)
            dist.append(
                f"{m.case} ({policy_label(name)}): {len(scored)} rollouts "
                f"({report.skipped} were already done), {steps} steps this run"
            )
            for key in ("precision", "recall", "f1", "isr", "ise"):
                dist.append(f"  {key:<9} {quantiles([float(r[key] or 0) for r in scored])}")
            dist.append(
                f"  rejected by the filter (ISR > 0.3 and ISE > 0.1): {rejected}/{len(scored)} "
                f"= {rejected / max(1, len(scored)):.0%} {dict(reasons)}"
            )
    lines = table(rows, rows[0].case, unit="steps")
    lines += ["", *dist]
    for line in lines:
        print(line)
    write_markdown(
        Path("docs/benchmarks.md"),
        "Question-only teacher vs gold walker (issue 31)"
        + (
            f", responses cut to {args.observation_chars} characters"
            if args.observation_chars
            else ""
        ),
        lines,
        note=f"- {len(tasks)} tasks ({', '.join(sorted(kinds))}), one rollout each "
        "per policy and setting, tool responses "
        + (f"cut to {args.observation_chars} characters, " if args.observation_chars else "whole, ")
        + f"{args.concurrency} threads, extractive visit, full-text "
        "search; steps/s include the Neo4j writes of each trajectory. `teacher` reads only the "
        "question and its tool responses; `gold-walker` (privileged) walks the gold plan. "
        "ISR/ISE/P/R are `seekgraph score`'s metrics: they read only what the web returned "
        "(never the agent's queries and goals echoed back). "
        + (f"Data: {args.about}. " if args.about else "")
        + "A rerun skips finished rollouts (then the timing row is not meaningful).",
    )


if __name__ == "__main__":
    main()
