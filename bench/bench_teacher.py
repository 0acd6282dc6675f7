"""The teacher policy on real tasks, with and without detours: ISR/ISE distributions, share kept
by the ISR/ISE filter (α=0.3, β=0.1), steps per second.

Runs against the graph in $NEO4J_URI, which must hold the shared corpus and WebLeaper/WebShaper
tasks (e.g. `seekgraph ingest …`, then the `leaper-trees` and `leaper-basic` stages). Rollouts
are written to that graph (policy `teacher`, models `teacher-d0` and `teacher-d<rate>`).

    .venv/bin/python -m bench.bench_teacher --tasks 200 --detour-rate 0.3
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from bench.common import Measurement, table, write_markdown
from seekgraph.agent.filtering import FilterConfig, verdict
from seekgraph.agent.rollouts import TeacherRollouts, load_tasks, run_rollouts
from seekgraph.agent.scoring import score_rollouts
from seekgraph.agent.teacher import TeacherConfig, TeacherPolicy
from seekgraph.agent.web.tools import CachedTools, WebTools
from seekgraph.common.config import ConfigFile, resolve_settings
from seekgraph.graphdb import cypher
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
    args = parser.parse_args()
    driver = open_driver(resolve_settings(ConfigFile()).connection)
    database = None
    tasks = load_tasks(driver, database, kind=args.kind, limit=args.tasks)
    kinds = {f"{t.kind}/{t.variant}" for t in tasks}
    rows: list[Measurement] = []
    dist: list[str] = []
    for rate in (0.0, args.detour_rate):
        tools = CachedTools(WebTools(driver, database))
        policy = TeacherRollouts(
            TeacherPolicy(driver, database, tools, TeacherConfig(detour_rate=rate))
        )
        report = run_rollouts(driver, database, tasks, policy, n=1, concurrency=args.concurrency)
        steps = int(str(report.notes["steps"]))
        m = Measurement(f"teacher detour_rate={rate:g}", seconds=[report.seconds], items=steps)
        rows.append(m)
        score_rollouts(driver, database, policy="teacher", rescore=True)
        scored = [
            r
            for r in cypher.read(
                driver, "agent/find_rollouts_to_filter", database=database, policy="teacher"
            )
            if f"/{policy.model}/" in r["rollout_id"]
        ]
        isr = [float(r["isr"]) for r in scored]
        ise = [float(r["ise"] or 0) for r in scored]
        kept = sum(
            verdict(r["termination"], float(r["isr"]), float(r["ise"] or 0), FilterConfig()) is None
            for r in scored
        )
        dist.append(
            f"{m.case}: {len(scored)} rollouts ({report.skipped} were already done), "
            f"{steps} steps this run, tool cache hits {tools.hits} / misses "
            f"{tools.misses}"
        )
        dist.append(f"  ISR  {quantiles(isr)}")
        dist.append(f"  ISE  {quantiles(ise)}")
        dist.append(
            f"  kept by the filter (ISR > 0.3 and ISE > 0.1): {kept}/{len(scored)} "
            f"= {kept / max(1, len(scored)):.0%}"
        )
    lines = table(rows, rows[0].case, unit="steps")
    lines += ["", *dist]
    for line in lines:
        print(line)
    write_markdown(
        Path("docs/benchmarks.md"),
        "Teacher policy on shared-data tasks",
        lines,
        note=f"- {len(tasks)} tasks ({', '.join(sorted(kinds))}), one rollout each "
        f"per setting, {args.concurrency} threads, extractive visit, full-text "
        "search; steps/s include the Neo4j writes of each trajectory. A rerun skips "
        "finished rollouts (then the timing row is not meaningful).",
    )


if __name__ == "__main__":
    main()
