"""The teacher's ISR / ISE / F1 / accuracy on the default data, and the echo test.

Starts a private Neo4j (its own data folder under `--home`, stopped at the end), runs the default
pipeline up to `score`, and prints the distribution (median, p10, p90) of the teacher's scores:

1. `whole`: tool responses as the tools return them;
2. `cut900`: every tool response cut to 900 characters (as the experiment's small models read
   them), a second set of rollouts (its own rollout ids);
3. `no-text`: every page's text replaced by "Nothing here about anyone", rollouts and the tool
   cache deleted, rolled out and scored again. Titles and URLs are still shown by search
   results, so an honest metric may still find the names the web shows there;
4. `emptied`: titles replaced too and the page embeddings removed (the vector ranking would
   still surface pages by their old text): the web shows nothing about anyone, so an honest
   metric gives ISR 0 and F1 0 whatever the agent typed into its queries and goals.

    .venv/bin/python -m bench.bench_observed --home /tmp/observed
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Any

import neo4j

from seekgraph.cli.pipeline import run_stages, select_stages
from seekgraph.common.config import ConfigFile, resolve_settings
from seekgraph.graphdb import server, server_files
from seekgraph.graphdb.driver import open_driver
from seekgraph.graphdb.schema import apply_schema
from seekgraph.graphdb.settings import ConnectionSettings
from seekgraph.graphdb.stages import StageContext

METRICS = ("isr", "ise", "f1", "accuracy")


def spread(values: list[float]) -> str:
    """`median (p10–p90) mean` of `values`."""
    if not values:
        return "n/a"
    v = sorted(values)

    def q(p: float) -> float:
        return v[min(len(v) - 1, round(p * (len(v) - 1)))]

    return f"{q(0.5):.3f} ({q(0.1):.3f}-{q(0.9):.3f}) mean {statistics.mean(v):.3f}"


def scores(driver: neo4j.Driver) -> list[dict[str, Any]]:
    records, _, _ = driver.execute_query(
        "MATCH (r:Rollout {status: 'done', policy: 'teacher'}) "
        "WHERE coalesce(r.pruned, false) = false AND r.isr IS NOT NULL "
        "RETURN r.model AS model, r.isr AS isr, r.ise AS ise, r.f1 AS f1, "
        "r.accuracy AS accuracy",
        routing_=neo4j.RoutingControl.READ,
    )
    return [dict(r) for r in records]


def table(case: str, rows: list[dict[str, Any]]) -> str:
    cells = [f"{m} {spread([float(r[m] or 0) for r in rows])}" for m in METRICS]
    return f"{case:8} n={len(rows):3}  " + "  ".join(cells)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--home", type=Path, required=True, help="folder for the private server")
    parser.add_argument("--out", type=Path, default=Path("out/bench_observed"))
    args = parser.parse_args()
    home = resolve_settings(ConfigFile()).server
    if not server_files.is_installed(home):
        server_files.install(home)
    args.home.mkdir(parents=True, exist_ok=True)
    settings = server.private_server(
        home, args.home, heap="1g", pagecache="512m", transaction_memory="512m"
    )
    server.start(settings)
    try:
        connection = ConnectionSettings(
            settings.bolt_uri, "neo4j", settings.password_file.read_text().strip(), None, True
        )
        driver = open_driver(connection)
        apply_schema(driver, None)
        ctx = StageContext(driver, None, args.out, echo=lambda _: None, progress_stream=None)
        lines = []
        started = time.perf_counter()
        default = [s.name for s in select_stages()]  # the default pipeline, up to score
        run_stages(ctx, select_stages(tuple(default[: default.index("score") + 1])), ConfigFile())
        whole = scores(driver)
        lines.append(table("whole", whole))
        print(lines[-1], flush=True)
        whole_models = {r["model"] for r in whole}
        run_stages(
            ctx,
            select_stages(("rollout", "score")),
            ConfigFile(),
            {"rollout": {"observation_chars": 900}},
        )
        cut = [r for r in scores(driver) if r["model"] not in whole_models]
        lines.append(table("cut900", cut))
        print(lines[-1], flush=True)
        for case, change in (
            ("no-text", "SET p.text = 'Nothing here about anyone'"),
            (
                "emptied",
                "SET p.title = 'Nothing here', p.text = 'Nothing here about anyone' "
                "REMOVE p.embedding",
            ),
        ):
            driver.execute_query(f"MATCH (p:Page) {change}")
            with driver.session() as session:  # IN TRANSACTIONS needs an auto-commit query
                session.run(
                    "MATCH (x) WHERE x:Rollout OR x:Step OR x:ToolCall "
                    "CALL (x) { DETACH DELETE x } IN TRANSACTIONS OF 2000 ROWS"
                ).consume()
            run_stages(ctx, select_stages(("rollout", "score")), ConfigFile())
            lines.append(table(case, scores(driver)))
            print(lines[-1], flush=True)
        print(f"default data, up to score, {time.perf_counter() - started:.0f} s")
        print("\n".join(lines))
        driver.close()
    finally:
        server.stop(settings, timeout=30.0)


if __name__ == "__main__":
    main()
