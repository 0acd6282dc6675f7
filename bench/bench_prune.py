"""WebClipper pruning on teacher trajectories with injected detours (known truth).

Runs against the graph in $NEO4J_URI (the managed dev server by default), which must hold tasks
and the offline web (`seekgraph pipeline` on the default data does it). Teacher rollouts with
detours (rate 0.3, model `teacher-d0.3`) are added until at least `--trajectories` exist, then
the prune stage runs over exactly those (redo mode: finished ones are measured again, all writes
are MERGE). Reports: precision/recall of pruned steps against recorded detours, rounds and tokens
removed, answer-entity retention, optimality gap against the exact solver, throughput, and, on a
handful of trajectories, the SmolLM2 LLM extractor against the rule-based one and rewriting.

    .venv/bin/python -m bench.bench_prune --trajectories 200 --llm 2 --rewrite 3
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter
from pathlib import Path

from agent.rollouts import TeacherRollouts, load_tasks, run_rollouts
from agent.teacher import TeacherConfig, TeacherPolicy
from agent.web.tools import CachedTools, WebTools
from bench.common import Measurement, table, write_markdown
from graphdb.driver import open_driver
from graphdb.settings import resolve
from training.stategraph import store
from training.stategraph.extract_rules import Lexicon, extract_rule_graphs
from training.stategraph.prune import PruneConfig, PruneOutcome, prune_rollouts
from training.stategraph.wire import parse_messages


def teacher_rollouts(driver, database, wanted: int, rate: float) -> list[str]:  # type: ignore[no-untyped-def]
    tasks = load_tasks(driver, database)
    policy = TeacherRollouts(
        TeacherPolicy(
            driver,
            database,
            CachedTools(WebTools(driver, database)),
            TeacherConfig(detour_rate=rate),
        )
    )
    n = max(1, math.ceil(wanted / max(1, len(tasks))))
    run_rollouts(driver, database, tasks, policy, n=n, concurrency=2)
    rows = driver.execute_query(
        "MATCH (r:Rollout {policy: 'teacher', model: $model, termination: 'answer'}) "
        "WHERE coalesce(r.pruned, false) = false RETURN r.rollout_id AS id ORDER BY id",
        model=policy.model,
        database_=database,
    ).records
    return [r["id"] for r in rows][:wanted]


def pr_lines(outcomes: list[PruneOutcome]) -> list[str]:
    removed = {(o.rollout_id, t) for o in outcomes for t in o.removed}
    truth = {(o.rollout_id, t) for o in outcomes for t in o.detours}
    hit = removed & truth
    p = len(hit) / max(1, len(removed))
    r = len(hit) / max(1, len(truth))
    kinds = Counter(o.detour_kinds[t] for o in outcomes for t in o.detours)
    found = Counter(o.detour_kinds[t] for o in outcomes for t in o.detours if t in o.removed)
    lines = [
        f"pruned steps vs recorded detours: precision {p:.3f}, recall {r:.3f} "
        f"({len(hit)} of {len(removed)} removed steps are detours; {len(truth)} detours)"
    ]
    lines += ["  recall by kind: " + ", ".join(f"{k} {found[k]}/{kinds[k]}" for k in sorted(kinds))]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--trajectories", type=int, default=200)
    parser.add_argument("--detour-rate", type=float, default=0.3)
    parser.add_argument("--llm", type=int, default=2, help="trajectories for the LLM extractor")
    parser.add_argument("--rewrite", type=int, default=2, help="trajectories rewritten (SmolLM2)")
    args = parser.parse_args()
    driver = open_driver(resolve().connection)
    database = None
    ids = teacher_rollouts(driver, database, args.trajectories, args.detour_rate)
    config = PruneConfig(rewrite=False, include_unfiltered=True, rollout_ids=tuple(ids), redo=True)
    started = time.perf_counter()
    result = prune_rollouts(driver, database, config)
    stage = Measurement(
        "prune stage (build+extract+search+write)",
        seconds=[time.perf_counter() - started],
        items=len(ids),
    )
    records = store.read_rollouts(driver, database, ids)
    t0 = time.perf_counter()
    for rec in records:
        if rec.messages:
            extract_rule_graphs(parse_messages(rec.messages), Lexicon(rec.lexicon))
    extract_only = Measurement(
        "rule extraction only (in memory)", seconds=[time.perf_counter() - t0], items=len(records)
    )
    outs = result.outcomes
    pruned = [o for o in outs if o.status == "pruned"]
    statuses = Counter(f"{o.status}:{o.reason}" for o in outs)
    rb = sum(o.tool_rounds_before for o in outs if o.status != "unpruned")
    ra = sum(o.tool_rounds_after for o in outs if o.status != "unpruned")
    tb = sum(o.tokens_before for o in outs if o.status != "unpruned")
    ta = sum(o.tokens_after for o in outs if o.status != "unpruned")
    costs = [(s, e) for o in outs for s, e in o.costs if s is not None and e is not None]
    gaps = [s - e for s, e in costs]
    lines = table([extract_only, stage], extract_only.case, unit="traj")
    lines += [
        "",
        f"trajectories: {len(outs)} teacher rollouts (detour rate {args.detour_rate}); "
        f"outcomes: {dict(sorted(statuses.items()))}",
        f"throughput (build + extraction + write + search): "
        f"{60 * len(outs) / max(result.seconds_graphs, 1e-9):.0f} trajectories/minute",
        *pr_lines(outs),
        f"tool rounds: {rb} -> {ra} ({100 * (ra - rb) / max(rb, 1):+.1f}%), tokens: {tb} -> "
        f"{ta} ({100 * (ta - tb) / max(tb, 1):+.1f}%) over accepted trajectories "
        "(paper: -21% rounds, -19.4% tokens)",
        f"pruned trajectories whose kept information holds every answer entity: "
        f"{sum(o.answer_kept for o in pruned)}/{len(pruned)}",
        f"optimality gap vs exact solver: {len(costs)} graphs solved exactly; search = "
        f"exact on {sum(g == 0 for g in gaps)}; mean gap {sum(gaps) / max(1, len(gaps)):.3f}"
        f" actions, max {max(gaps, default=0)}",
    ]
    if args.llm:
        lines += ["", *llm_lines(driver, database, ids[: args.llm], result.outcomes)]
    if args.rewrite:
        lines += [
            "",
            *rewrite_lines(driver, database, [o.rollout_id for o in pruned][: args.rewrite]),
        ]
    for line in lines:
        print(line)
    write_markdown(
        Path("docs/benchmarks.md"),
        "WebClipper pruning (bench_prune)",
        lines,
        note=f"- `python -m bench.bench_prune --trajectories {args.trajectories} "
        f"--llm {args.llm} --rewrite {args.rewrite}` on the managed server holding the "
        "default data; 2 shared CPU cores (heavily loaded by other jobs while measured).",
    )


def llm_lines(driver, database, ids: list[str], rule: list[PruneOutcome]) -> list[str]:  # type: ignore[no-untyped-def]
    from agent.llm.registry import load_backend
    from training.stategraph.extract_llm import LLMExtractor

    llm = LLMExtractor(load_backend("transformers"))
    started = time.perf_counter()
    result = prune_rollouts(
        driver,
        database,
        PruneConfig(rewrite=False, include_unfiltered=True, rollout_ids=tuple(ids), redo=True),
        extractor=lambda t, _lex: llm.extract(t),
    )
    seconds = time.perf_counter() - started
    by_id = {o.rollout_id: o for o in rule}
    lines = [
        f"LLM extractor (SmolLM2-135M, transformers, CPU) on {len(ids)} trajectories, "
        f"3 runs each, {seconds:.0f}s:"
    ]
    for o in result.outcomes:
        r = by_id.get(o.rollout_id)
        lines.append(
            f"  {o.rollout_id}: llm {o.status}:{o.reason} sets {o.necessary_sets} | "
            f"rule {r.status if r else '?'} set {r.necessary_sets[0] if r else '?'} "
            f"(turns {o.n_turns})"
        )
    return lines


def rewrite_lines(driver, database, ids: list[str]) -> list[str]:  # type: ignore[no-untyped-def]
    if not ids:
        return ["rewriting: no pruned trajectory to rewrite"]
    started = time.perf_counter()
    result = prune_rollouts(
        driver,
        database,
        PruneConfig(
            rewrite=True,
            n_candidates=2,
            max_new_tokens=48,
            include_unfiltered=True,
            rollout_ids=tuple(ids),
            redo=True,
        ),
    )
    seconds = time.perf_counter() - started
    done = Counter(o.rewrite_status for o in result.outcomes)
    n = sum(o.rewritten for o in result.outcomes)
    return [
        f"rewriting (SmolLM2 candidates x2, perplexity under SmolLM2) on {len(ids)} pruned "
        f"trajectories: {n} thoughts rewritten, statuses {dict(done)}, "
        f"{result.seconds_rewrite:.0f}s rewriting ({seconds:.0f}s total)"
    ]


if __name__ == "__main__":
    main()
