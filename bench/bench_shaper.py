"""WebShaper on an ingested graph: import the published 500, seeds, layer-wise expansion, sizes.

Runs against the server the settings name (use a scratch server, the stages write tasks):

    SEEKGRAPH_BOLT_PORT=7787 .venv/bin/python -m bench.bench_shaper --home /tmp/shaper-neo4j \\
        --published ../shared/data/webshaper/webshaper.500.jsonl --seeds 60 --layers 3

Prints stage times, rejections by reason, the triples/variables per task next to the published
500, the Cypher execution time against the Python set evaluator on the same link-only tasks
(ratio), and ten expanded tasks as JSON lines; writes its section into docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from bench.common import measure, table, write_markdown
from seekgraph.common.config import ConfigFile, resolve_settings
from seekgraph.graphdb.driver import open_driver
from seekgraph.graphdb.schema import apply_schema
from seekgraph.graphdb.stages import save_report
from seekgraph.synth.shaper.compile import execute
from seekgraph.synth.shaper.config import ShaperConfig
from seekgraph.synth.shaper.evaluate import evaluate
from seekgraph.synth.shaper.expand import expand_tasks
from seekgraph.synth.shaper.kp import KPTask
from seekgraph.synth.shaper.published import to_row
from seekgraph.synth.shaper.seeds import make_seeds
from seekgraph.synth.shaper.stages import import_published
from seekgraph.synth.shaper.store import delete_tasks, load_tasks
from tests.scaffolding.kgraph import read_wikispeedia


def sizes(tasks: list[KPTask]) -> str:
    if not tasks:
        return "n=0"
    t = [len(x.triples) for x in tasks]
    v = [len(x.variables()) - 1 for x in tasks]
    return (
        f"n={len(tasks):>4}  triples median {statistics.median(t):>4} mean "
        f"{statistics.mean(t):5.1f} max {max(t):>3}  variables (without ?) median "
        f"{statistics.median(v):>3} mean {statistics.mean(v):4.1f} max {max(v):>2}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--home", type=Path, required=True, help="Neo4j home of the scratch server")
    parser.add_argument("--published", type=Path)
    parser.add_argument("--wikispeedia", type=Path, default=Path("../shared/data/wikispeedia"))
    parser.add_argument("--seeds", type=int, default=60)
    parser.add_argument("--layers", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--no-compare", action="store_true", help="skip timing the Python evaluator against Cypher"
    )
    parser.add_argument("--fresh", action="store_true", help="delete seeds/expansions first")
    parser.add_argument("--samples", type=Path, default=Path("out/shaper_samples.jsonl"))
    args = parser.parse_args()
    settings = resolve_settings(ConfigFile(), flags={"home": args.home})
    driver = open_driver(settings.connection)
    apply_schema(driver)
    if args.fresh:
        delete_tasks(driver, None, ["seed", "expanded"])
    lines: list[str] = []
    stage_times: list[str] = []
    if args.published:
        report = import_published(driver, None, args.published)
        save_report(driver, report)
        stage_times.append(f"import published   {report.seconds:8.1f} s")
        lines += report.summary_lines()
    seeds = make_seeds(driver, None, ShaperConfig(n_seeds=args.seeds, seed=args.seed))
    save_report(driver, seeds)
    stage_times.append(f"seeds ({args.seeds} walks) {seeds.seconds:8.1f} s")
    lines += seeds.summary_lines()
    expanded = expand_tasks(driver, None, ShaperConfig(layers=args.layers, seed=args.seed))
    save_report(driver, expanded)
    stage_times.append(f"expand ({args.layers} layers) {expanded.seconds:8.1f} s")
    for line in seeds.summary_lines() + expanded.summary_lines():
        print(line, flush=True)
    lines += [line for line in expanded.summary_lines() if "rejected_by_reason" not in line]
    tasks = load_tasks(driver, None)
    by_source: dict[str, list[KPTask]] = {}
    for t in tasks:
        by_source.setdefault(t.source, []).append(t)
    lines += ["", "stage times:", *stage_times, "", "task sizes:"]
    lines.append(f"published (imported) {sizes(by_source.get('published', []))}")
    lines.append(f"seeds                {sizes(by_source.get('seed', []))}")
    exp = by_source.get("expanded", [])
    lines.append(f"expanded (all)       {sizes(exp)}")
    for layer in sorted({t.layer for t in exp}):
        lines.append(f"expanded layer {layer}     {sizes([t for t in exp if t.layer == layer])}")
    lines.append(f"layers reached: {max((t.layer for t in exp), default=0)}")
    heldout = sum(1 for t in tasks if t.source != "published" and t.split == "heldout")
    lines.append(f"heldout split: {heldout} of {len(tasks) - len(by_source.get('published', []))}")
    # Cypher vs the Python evaluator on the link-only synthesized tasks (same answers, timed).
    link_tasks = [
        t
        for t in tasks
        if t.source != "published"
        and all(tr.relation in ("links_to", "linked_from") for tr in t.triples)
    ]
    link_tasks = link_tasks[:10]
    if link_tasks and not args.no_compare and (args.wikispeedia / "articles.jsonl.gz").is_file():
        graph = read_wikispeedia(args.wikispeedia)
        mismatches = sum(1 for t in link_tasks if set(execute(driver, t)) != evaluate(t, graph))
        rows = [
            measure(
                "python set evaluator (Wikispeedia in memory)",
                lambda: sum(1 for t in link_tasks if evaluate(t, graph) is not None),
                repeat=2,
            ),
            measure(
                "compiled Cypher (one query per task)",
                lambda: sum(1 for t in link_tasks if execute(driver, t) is not None),
                repeat=2,
            ),
        ]
        lines += [
            "",
            f"{len(link_tasks)} link-only tasks, answers differing: {mismatches}",
            *table(rows, rows[0].case, unit="tasks"),
        ]
    args.samples.parent.mkdir(parents=True, exist_ok=True)
    deepest = sorted(exp, key=lambda t: (-t.layer, t.task_id))[:10]
    with args.samples.open("w", encoding="utf-8") as f:
        for t in deepest:
            f.write(json.dumps(to_row(t), ensure_ascii=False) + "\n")
    for line in lines:
        print(line)
    print(f"ten expanded tasks -> {args.samples}")
    write_markdown(
        Path("docs/benchmarks.md"),
        "WebShaper KP tasks (bench_shaper)",
        lines,
        note=f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on a "
        "scratch server holding Wikispeedia (4,598 articles) and 600 OTT-QA tables "
        "(those linking most to Wikispeedia), on the shared 2-core machine. "
        "`python -m bench.bench_shaper --home ... --published ...`.",
    )
    driver.close()


if __name__ == "__main__":
    main()
