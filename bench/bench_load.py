"""Loading a generated graph: batched `UNWIND ... MERGE` over Bolt vs `neo4j-admin database import`.

For each N (nodes; as many relationships), both loaders put the same graph into a private
server; the import tool is the reference (ratio = its median time / the loader's median time,
so a ratio below 1 means slower than the import tool). Rows = nodes + relationships.

    .venv/bin/python -m bench.bench_load --sizes 10000 100000 1000000 --repeat 3
"""

from __future__ import annotations

import argparse
import csv
import random
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

import neo4j

from bench.common import Measurement, measure, peak_rss, table, write_markdown
from seekgraph.common.config import ConfigFile, resolve_settings
from seekgraph.graphdb import cypher, server
from seekgraph.graphdb.bulk_import import import_full
from seekgraph.graphdb.driver import open_driver
from seekgraph.graphdb.settings import ConnectionSettings, ServerSettings


def generate(n: int, seed: int = 7) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    rng = random.Random(seed)
    nodes = [{"id": i, "name": f"item-{i}"} for i in range(n)]
    links = {(rng.randrange(n), rng.randrange(n)) for _ in range(n)}
    rels = [{"src": a, "dst": b} for a, b in sorted(links)]
    return nodes, rels


def private_server(root: Path) -> ServerSettings:
    return server.private_server(
        resolve_settings(ConfigFile(), env={}).server,
        root / "neo4j",
        heap="1g",
        pagecache="512m",
        transaction_memory="512m",
    )


def connect(settings: ServerSettings) -> neo4j.Driver:
    password = settings.password_file.read_text().strip()
    return open_driver(ConnectionSettings(settings.bolt_uri, "neo4j", password, None, True))


def load_unwind(
    driver: neo4j.Driver, nodes: list[dict[str, Any]], rels: list[dict[str, Any]], batch: int
) -> int:
    cypher.run_batches(driver, "bench/merge_items", nodes, batch_size=batch)
    cypher.run_batches(driver, "bench/merge_item_links", rels, batch_size=batch)
    return len(nodes) + len(rels)


def write_csv(folder: Path, nodes: list[dict[str, Any]], rels: list[dict[str, Any]]) -> None:
    with open(folder / "nodes.csv", "w", newline="") as handle:
        w = csv.writer(handle)
        w.writerow(["id:ID(BenchItem)", "name", ":LABEL"])
        w.writerows([n["id"], n["name"], "BenchItem"] for n in nodes)
    with open(folder / "rels.csv", "w", newline="") as handle:
        w = csv.writer(handle)
        w.writerow([":START_ID(BenchItem)", ":END_ID(BenchItem)", ":TYPE"])
        w.writerows([r["src"], r["dst"], "BENCH_LINK"] for r in rels)


def load_import(settings: ServerSettings, folder: Path) -> None:
    import_full(
        settings,
        [folder / "nodes.csv"],
        [folder / "rels.csv"],
        threads=2,
        id_type="integer",
        multiline=False,
    )


def counts(driver: neo4j.Driver) -> tuple[int, int]:
    row = cypher.read(driver, "bench/count_bench_graph")[0]
    return int(row["nodes"]), int(row["relationships"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--batch", type=int, default=10_000)
    parser.add_argument("--no-write", action="store_true", help="Do not update docs/benchmarks.md.")
    args = parser.parse_args()

    lines_all: list[str] = []
    with tempfile.TemporaryDirectory(prefix="seekgraph-bench-load-") as tmp:
        root = Path(tmp)
        settings = private_server(root)
        server.start(settings)
        try:
            for n in args.sizes:
                nodes, rels = generate(n)
                rows = len(nodes) + len(rels)
                repeat = args.repeat if n < 1_000_000 else 1
                results: list[Measurement] = []

                driver = connect(settings)
                cypher.write(driver, "bench/bench_item_constraint")

                def wipe(drv: neo4j.Driver = driver) -> None:
                    with drv.session() as session:
                        session.run(cypher.query("bench/delete_bench_graph")).consume()

                neo_pid = server.status(settings).pid
                with peak_rss(neo_pid) as neo_mem:
                    m = measure(
                        f"UNWIND MERGE (batch {args.batch})",
                        partial(load_unwind, driver, nodes, rels, args.batch),
                        repeat=repeat,
                        setup=wipe,
                    )
                m.extra["neo4j_peak_mib"] = neo_mem["peak_mib"]
                got = counts(driver)
                assert got == (len(nodes), len(rels)), got
                results.append(m)
                driver.close()

                folder = root / f"csv-{n}"
                folder.mkdir()
                started = time.perf_counter()
                write_csv(folder, nodes, rels)
                csv_seconds = time.perf_counter() - started
                server.stop(settings)
                imp = measure(
                    "neo4j-admin database import",
                    partial(load_import, settings, folder),
                    repeat=repeat,
                )
                imp.items = rows
                server.start(settings)
                driver = connect(settings)
                got = counts(driver)
                assert got == (len(nodes), len(rels)), got
                driver.close()
                results.insert(0, imp)
                lines = [
                    f"N = {n:,} nodes + {len(rels):,} relationships "
                    f"(CSV writing for the import: {csv_seconds:.2f}s, not counted)"
                ]
                lines += table(results, reference="neo4j-admin database import", unit="rows")
                lines.append(f"Neo4j peak RSS during UNWIND: {m.extra['neo4j_peak_mib']:.0f} MiB")
                print("\n".join(lines), flush=True)
                lines_all += [*lines, ""]
        finally:
            server.stop(settings)
    if not args.no_write:
        write_markdown(
            Path("docs/benchmarks.md"),
            "Loading a generated graph",
            lines_all,
            note="`python -m bench.bench_load`; 2 cores, Neo4j heap 1g, page cache "
            "512m; import tool timed including its JVM start.",
        )


if __name__ == "__main__":
    main()
