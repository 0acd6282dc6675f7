"""WebClipper pruning on teacher trajectories with injected detours (known truth).

Runs against the graph in $NEO4J_URI (the managed dev server by default), which must hold tasks
and the offline web (`seekgraph pipeline` on the default data does it). Teacher rollouts with
detours (rate 0.3, model `teacher-d0.3`) are added until at least `--trajectories` exist, then
the prune stage runs over exactly those (redo mode: finished ones are measured again, all writes
are MERGE). Reports: precision/recall of pruned steps against recorded detours, rounds and tokens
removed, answer-entity retention, optimality gap against the exact solver, throughput, and, on a
handful of trajectories, the SmolLM2 LLM extractor against the rule-based one (in memory, its own
section; `--llm-only` skips the stage measurement) and rewriting.

    .venv/bin/python -m bench.bench_prune --trajectories 200 --llm 2 --rewrite 3
    .venv/bin/python -m bench.bench_prune --trajectories 34 --llm 34 --llm-budget-s 1500 --llm-only
"""

from __future__ import annotations

import argparse
import math
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from bench.common import Measurement, table, write_markdown
from seekgraph.agent.gold_walker import GoldWalkerPolicy
from seekgraph.agent.rollouts import TeacherRollouts, load_tasks, run_rollouts
from seekgraph.agent.teacher import TeacherConfig
from seekgraph.agent.web.tools import WebTools
from seekgraph.agent.web.wrappers import CachedTools
from seekgraph.common.config import ConfigFile, resolve_settings
from seekgraph.graphdb import cypher
from seekgraph.graphdb.driver import open_driver
from seekgraph.training.stategraph import store
from seekgraph.training.stategraph.extract_rules import Lexicon, extract_rule_graphs
from seekgraph.training.stategraph.extraction import answer_entities, default_processes
from seekgraph.training.stategraph.prune import prune_rollouts
from seekgraph.training.stategraph.prune_config import PruneConfig
from seekgraph.training.stategraph.prune_outcome import PruneOutcome
from tests.scaffolding.prune_compare import Judgement, jaccard, judge


def teacher_rollouts(driver, database, wanted: int, rate: float) -> list[str]:  # type: ignore[no-untyped-def]
    tasks = load_tasks(driver, database)
    policy = TeacherRollouts(
        GoldWalkerPolicy(
            driver,
            database,
            CachedTools(WebTools(driver, database)),
            TeacherConfig(detour_rate=rate),
        ),
        name="gold-walker",
    )
    n = max(1, math.ceil(wanted / max(1, len(tasks))))
    run_rollouts(driver, database, tasks, policy, n=n, concurrency=2)
    rows = driver.execute_query(
        "MATCH (r:Rollout {policy: 'gold-walker', model: $model, termination: 'answer'}) "
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
    parser.add_argument("--runs", type=int, default=3, help="runs of each stage case")
    parser.add_argument(
        "--extract-processes",
        type=int,
        default=0,
        help="the stage's extraction processes (0: one per core, its default)",
    )
    parser.add_argument("--llm", type=int, default=2, help="trajectories for the LLM extractor")
    parser.add_argument("--llm-backend", default="transformers", help="LLM spec (extractor)")
    parser.add_argument(
        "--llm-budget-s", type=float, default=1500.0, help="stop LLM extraction after this"
    )
    parser.add_argument(
        "--llm-only", action="store_true", help="only the LLM-vs-rule comparison section"
    )
    parser.add_argument(
        "--llm-source-chars", type=int, default=600, help="characters of each observation shown"
    )
    parser.add_argument("--llm-max-known", type=int, default=10, help="facts offered per step")
    parser.add_argument("--llm-uses-tokens", type=int, default=12, help="tokens per 'uses' reply")
    parser.add_argument("--llm-facts-tokens", type=int, default=40, help="tokens per facts reply")
    parser.add_argument("--llm-max-facts", type=int, default=3, help="facts per observation")
    parser.add_argument(
        "--llm-pick",
        choices=["shuffle", "shortest-with-detours"],
        default="shuffle",
        help="which trajectories: a seeded shuffle, or the shortest that have recorded detours",
    )
    parser.add_argument("--rewrite", type=int, default=2, help="trajectories rewritten (SmolLM2)")
    args = parser.parse_args()
    driver = open_driver(resolve_settings(ConfigFile()).connection)
    database = None
    ids = teacher_rollouts(driver, database, args.trajectories, args.detour_rate)
    if not args.llm_only:
        stage_section(driver, database, ids, args)
    if args.llm:
        lines = llm_lines(driver, database, ids, args)
        for line in lines:
            print(line)
        write_markdown(
            Path("docs/benchmarks.md"),
            "WebClipper: LLM extractor vs rule extractor (bench_prune --llm)",
            lines,
            note=f"- `python -m bench.bench_prune --trajectories {args.trajectories} --llm "
            f"{args.llm} --llm-budget-s {args.llm_budget_s:g} --llm-source-chars "
            f"{args.llm_source_chars} --llm-max-known {args.llm_max_known} --llm-uses-tokens "
            f"{args.llm_uses_tokens} --llm-facts-tokens {args.llm_facts_tokens} --llm-max-facts "
            f"{args.llm_max_facts} --llm-pick {args.llm_pick}{' --llm-only' * args.llm_only}`"
            " (SmolLM2-135M-Instruct on CPU, one thread, on a 2-core machine shared with other "
            "jobs); the comparison runs in memory and leaves the stored prune results alone.",
        )


def stage_section(driver, database, ids: list[str], args: argparse.Namespace) -> None:  # type: ignore[no-untyped-def]
    """The prune stage over `ids` (rule extractor), optional rewriting; its own section."""
    config = PruneConfig(
        rewrite=False,
        include_unfiltered=True,
        rollout_ids=tuple(ids),
        redo=True,
        extract_processes=args.extract_processes,
    )
    processes = args.extract_processes or default_processes()
    graph_ids = [store.graph_id(i, "rule", run) for i in ids for run in range(3)]
    records = store.read_rollouts(driver, database, ids)
    extract_only = Measurement("rule extraction only (in memory)", items=len(records))
    stages = {
        (mode, run): Measurement(f"prune stage, graph_search={mode}, {run}", items=len(ids))
        for mode in ("cypher", "memory")  # the answer's ancestors by query, or on built graphs
        for run in ("first run", "redo")
    }
    for _ in range(args.runs):  # interleaved, so a busy spell of the machine hits every case
        re.purge()  # each trajectory's lexicon pattern compiles afresh in every case
        t0 = time.perf_counter()
        for rec in records:
            if rec.trajectory.turns:
                extract_rule_graphs(rec.trajectory, Lexicon(rec.lexicon))
        extract_only.seconds.append(time.perf_counter() - t0)
        for (mode, run), measurement in stages.items():
            if run == "first run":  # as on new trajectories: no stored graph parts to replace
                for batch in cypher.batched(graph_ids, 50):
                    cypher.write(
                        driver,
                        "clipper/delete_state_graph_parts",
                        database=database,
                        graph_ids=batch,
                    )
            re.purge()
            started = time.perf_counter()
            result = prune_rollouts(driver, database, replace(config, graph_search=mode))
            measurement.seconds.append(time.perf_counter() - started)
    outs = result.outcomes
    pruned = [o for o in outs if o.status == "pruned"]
    statuses = Counter(f"{o.status}:{o.reason}" for o in outs)
    rb = sum(o.tool_calls_before for o in outs if o.status != "unpruned")
    ra = sum(o.tool_calls_after for o in outs if o.status != "unpruned")
    tb = sum(o.tokens_before for o in outs if o.status != "unpruned")
    ta = sum(o.tokens_after for o in outs if o.status != "unpruned")
    costs = [(s, e) for o in outs for s, e in o.costs if s is not None and e is not None]
    gaps = [s - e for s, e in costs]
    lines = table([extract_only, *stages.values()], extract_only.case, unit="traj")
    lines += [
        "",
        f"trajectories: {len(outs)} teacher rollouts (detour rate {args.detour_rate}); "
        f"outcomes: {dict(sorted(statuses.items()))}; the stage extracts in "
        f"{processes} process(es), the reference in one",
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
        f"--llm {args.llm} --rewrite {args.rewrite} --runs {args.runs}` on the managed server "
        "holding the default data; 2 CPU cores shared by the stage and Neo4j. The cases run "
        "interleaved, each with an empty regex cache (the lexicons' patterns are compiled in "
        "every case). 'first run': no stored state graph; 'redo': the same graphs stored "
        "already (written again only when they differ).",
    )


@dataclass
class LLMRow:
    """One trajectory judged with both extractors."""

    rollout_id: str
    rule: Judgement
    llm: Judgement
    detours: dict[int, str]
    turns: int


def llm_lines(driver, database, ids: list[str], args: argparse.Namespace) -> list[str]:  # type: ignore[no-untyped-def]
    """The LLM extractor (SmolLM2 by default) vs the rule extractor on the same trajectories.

    In memory (`tests.scaffolding.prune_compare`), so what the prune stage stored stays as it was;
    up to `args.llm` trajectories are taken from a seeded shuffle of `ids` (kinds mixed) until
    `args.llm_budget_s` seconds of LLM extraction are spent; each is printed as it finishes.
    Shorter prompts than the extractor's defaults (`--llm-source-chars`, `--llm-max-known`)
    because CPU prefill of ~450-token prompts dominated: ~5 CPU-minutes per trajectory.
    """
    from seekgraph.common.llm.registry import load_backend
    from seekgraph.training.stategraph.extract_llm import LLMExtractor

    order = list(ids)
    random.Random(0).shuffle(order)
    records = {r.rollout_id: r for r in store.read_rollouts(driver, database, order)}
    if args.llm_pick == "shortest-with-detours":  # stable: ties keep the shuffled order
        order = [i for i in order if i in records and records[i].detours]
        order.sort(key=lambda i: len(records[i].trajectory.turns))
    order = order[: args.llm]
    backend = args.llm_backend
    llm = LLMExtractor(
        load_backend(backend),
        source_chars=args.llm_source_chars,
        max_known=args.llm_max_known,
        uses_tokens=args.llm_uses_tokens,
        facts_tokens=args.llm_facts_tokens,
        max_facts=args.llm_max_facts,
    )
    rows: list[LLMRow] = []
    spent = rule_spent = 0.0
    for rid in order:
        record = records.get(rid)
        if spent >= args.llm_budget_s:
            break
        if record is None or not record.trajectory.turns:
            continue
        trajectory = record.trajectory
        lexicon = Lexicon(record.lexicon)
        keys, required = answer_entities(trajectory, lexicon)
        t0 = time.perf_counter()
        rule = judge(trajectory, lexicon, extract_rule_graphs(trajectory, lexicon), required, keys)
        t1 = time.perf_counter()
        smol = judge(trajectory, lexicon, llm.extract(trajectory), required, keys)
        t2 = time.perf_counter()
        rule_spent += t1 - t0
        spent += t2 - t1
        row = LLMRow(rid, rule, smol, dict(record.detours), len(trajectory.turns))
        rows.append(row)
        parsed = sum(s.calls - s.parse_failures for s in smol.stats)
        print(
            f"  llm {len(rows)}: {rid} ({row.turns} turns, {t2 - t1:.0f}s): llm {smol.reason} "
            f"{[_fmt(x) for x in smol.sets]}, parsed {parsed}/{sum(s.calls for s in smol.stats)}"
            f" | rule {rule.reason} {_fmt(rule.accepted)} | detours {sorted(row.detours)}",
            flush=True,
        )
    lines = llm_summary(rows, backend, spent, rule_spent)
    settings = (
        f"  extractor settings: source_chars {llm.source_chars}, max_known {llm.max_known}, "
        f"max_facts {llm.max_facts}, facts_tokens {llm.facts_tokens}, uses_tokens "
        f"{llm.uses_tokens}, temperature {llm.temperature} (runs 1-2), stop at the first ']'"
    )
    return [lines[0], settings, *lines[1:]]


def _fmt(s: frozenset[int] | None) -> str:
    return "failed" if s is None else "{" + ",".join(map(str, sorted(s))) + "}"


def _side_lines(name: str, judged: list[Judgement], rows: list[LLMRow]) -> list[str]:
    stats = [s for j in judged for s in j.stats]
    g = max(1, len(stats))
    outcomes = Counter(j.reason for j in judged)
    accepted = [(j, r) for j, r in zip(judged, rows, strict=True) if j.accepted is not None]
    removed = sum(len(j.removed) for j, _ in accepted)
    hits = sum(len(set(j.removed) & set(r.detours)) for j, r in accepted)
    truth_accepted = sum(len(r.detours) for _, r in accepted)
    truth_all = sum(len(r.detours) for r in rows)
    turns = sum(r.turns for _, r in accepted)
    lines = [
        f"  {name}: {len(stats)} graphs; per graph: facts {sum(s.infos for s in stats) / g:.1f}, "
        f"PRODUCES {sum(s.produces for s in stats) / g:.1f}, ENABLES "
        f"{sum(s.enables for s in stats) / g:.1f}, answer relies on "
        f"{sum(s.answer_needs for s in stats) / g:.1f} (none in "
        f"{sum(1 for s in stats if not s.answer_needs)} graphs); vote "
        f"{dict(sorted(outcomes.items()))}"
    ]
    calls = sum(s.calls for s in stats)
    if calls:
        bad = sum(s.parse_failures for s in stats)
        lines.append(
            f"    JSON replies parsed: {calls - bad}/{calls} ({100 * (calls - bad) / calls:.1f}%)"
        )
    lines += [
        f"    pruned steps vs recorded detours: precision {hits / max(1, removed):.3f} "
        f"({hits}/{removed}), recall {hits / max(1, truth_accepted):.3f} ({hits}/"
        f"{truth_accepted}) on accepted trajectories, {hits / max(1, truth_all):.3f} ({hits}/"
        f"{truth_all}) on all; {removed} of {turns} turns removed on accepted ones",
        f"    accepted prunings whose kept information holds every answer entity: "
        f"{sum(1 for j, _ in accepted if j.answer_kept)}/{len(accepted)}",
    ]
    return lines


def llm_summary(rows: list[LLMRow], backend: str, spent: float, rule_spent: float) -> list[str]:
    if not rows:
        return ["LLM extractor: no trajectory finished within the budget"]
    n = len(rows)
    lines = [
        f"LLM extractor ({backend}; 3 runs: greedy + 2 sampled) vs rule extractor (3 "
        f"granularities), same {n} teacher trajectories (detour rate 0.3), in memory:",
        *_side_lines("rule", [r.rule for r in rows], rows),
        *_side_lines("llm", [r.llm for r in rows], rows),
    ]
    per_run = [
        jaccard(s, r.rule.accepted)
        for r in rows
        for s in r.llm.sets
        if s is not None and r.rule.accepted is not None
    ]
    both = [r for r in rows if r.rule.accepted is not None and r.llm.accepted is not None]
    pairs = [(r.rule.accepted, r.llm.accepted) for r in both]
    lines += [
        f"  necessary sets, each LLM run vs the rule vote's set: mean Jaccard "
        f"{sum(per_run) / max(1, len(per_run)):.3f} over {len(per_run)} runs, identical in "
        f"{sum(1 for x in per_run if x == 1.0)}",
        f"  both votes accepted on {len(both)}/{n}: identical sets {sum(a == b for a, b in pairs)}"
        f", mean Jaccard {sum(jaccard(a, b) for a, b in pairs if a and b) / max(1, len(pairs)):.3f}",
        f"  throughput: LLM extraction + search {60 * n / max(spent, 1e-9):.2f} trajectories/min "
        f"({spent:.0f}s for {n}); rule extraction + search {60 * n / max(rule_spent, 1e-9):.0f}/min",
    ]
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
            rewrite_backend="transformers",
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
