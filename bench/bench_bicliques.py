"""Maximal-biclique enumeration: Cypher-driven vs the pure-Python reference vs networkx.

Graphs: the real tree × relation graph of a server (``(:Tree)-[:HAS_RELATION]->(:Relation)``,
e.g. after the leaper stages on OTT-QA), a generated one with skewed relation popularity (like
table headers), and a generated one 10x larger. The reference is the pure-Python Close-by-One;
networkx runs maximal-clique search on the standard reduction (both sides made cliques), only up
to ``NX_MAX_TREES`` trees because the reduction holds a clique of all trees. Needs a Neo4j for the
real graph and the Cypher case: ``--uri``/``--password`` or ``NEO4J_URI``/``NEO4J_PASSWORD``
(generated graphs are written there as ``bench:*`` Tree/Relation nodes and removed afterwards).
The real graph is measured on the topic groups the Union stage searched (``TopicGroup`` nodes),
every group enumerated by all three, and on a generated graph ``--scale`` (10) times larger:
perturbed copies of those groups, written to the server as ``bench:*`` trees; with ``--limit N`` also on all trees as one graph, each
enumeration stopped after N bicliques (the table then compares rates over the first N found).

    NEO4J_URI=bolt://127.0.0.1:17791 NEO4J_PASSWORD=... .venv/bin/python -m bench.bench_bicliques
"""

from __future__ import annotations

import argparse
import os
import random
from collections.abc import Callable
from pathlib import Path

import neo4j

from bench.common import Measurement, measure, table, write_markdown
from seekgraph.graphdb import cypher
from seekgraph.synth.leaper.bicliques import (
    Biclique,
    BicliqueError,
    maximal_bicliques,
    maximal_bicliques_cypher,
    maximal_bicliques_cypher_groups,
    maximal_bicliques_networkx,
)
from tests.scaffolding.source_tables import random_adjacency, write_tree_relations

SIZES = [("generated 200 trees", 200, 60), ("generated 2000 trees (10x)", 2000, 600)]
NX_MAX_TREES = 500  # the reduction has a clique of all trees: 2000 did not end in 300 s
REFERENCE = "pure-Python CbO (reference)"


def _counted(run: Callable[[], list[Biclique]], limit: int | None) -> int:
    """Bicliques found; with a limit, the enumeration stops (raises) after limit + 1 of them."""
    try:
        return len(run())
    except BicliqueError:
        assert limit is not None
        return limit + 1


def _real_adjacency(
    driver: neo4j.Driver, database: str | None, generated: bool = False
) -> dict[str, set[str]]:
    """Every tree's relations (the generated `bench:` trees too with `generated`)."""
    rows = cypher.read(driver, "leaper/find_tree_relations", database=database)
    return {
        r["tree_id"]: set(r["relations"])
        for r in rows
        if r["relations"] and (generated or not r["tree_id"].startswith("bench:"))
    }


def _case(
    label: str,
    adj: dict[str, set[str]],
    driver: neo4j.Driver | None,
    database: str | None,
    limit: int | None,
) -> list[str]:
    """Time the three implementations on one graph; assert equal results when complete."""
    n_rel = len({r for rels in adj.values() for r in rels})
    edges = sum(len(r) for r in adj.values())
    complete = True
    try:
        ref: list[Biclique] | None = maximal_bicliques(
            adj, min_trees=2, min_relations=2, limit=limit
        )
    except BicliqueError:
        ref, complete = None, False
    rows: list[Measurement] = [
        measure(
            REFERENCE,
            lambda: _counted(
                lambda: maximal_bicliques(adj, min_trees=2, min_relations=2, limit=limit), limit
            ),
            repeat=1 if len(adj) > NX_MAX_TREES else 3,
        )
    ]
    if len(adj) <= NX_MAX_TREES and limit is None:  # networkx has no limit: rates would differ
        nx_result = maximal_bicliques_networkx(adj, min_trees=2, min_relations=2)
        if ref is not None:
            assert nx_result == ref
        rows.append(
            measure(
                "networkx find_cliques on reduction",
                lambda: len(maximal_bicliques_networkx(adj, min_trees=2, min_relations=2)),
                repeat=1,
            )
        )
    if driver is not None:
        ids = sorted(adj)

        def run_cypher() -> list[Biclique]:
            return maximal_bicliques_cypher(
                driver, ids, database=database, min_trees=2, min_relations=2, limit=limit
            )

        if ref is not None:
            assert run_cypher() == ref
        rows.append(
            measure("Cypher-driven CbO (by level)", lambda: _counted(run_cypher, limit), repeat=1)
        )
    found = f"{len(ref)} maximal bicliques" if ref is not None else f"stopped at {limit} bicliques"
    lines = [
        f"{label}: {len(adj)} trees, {n_rel} relations, {edges} edges, {found} "
        f"(>=2 trees, >=2 relations){'' if complete else '; rates over the first bicliques found (search orders differ)'}"
    ]
    if len(adj) > NX_MAX_TREES:
        lines.append(f"  networkx skipped: more than {NX_MAX_TREES} trees")
    return lines + table(rows, REFERENCE, unit="bicliques") + [""]


def _real_groups(
    real: dict[str, set[str]], driver: neo4j.Driver, database: str | None
) -> list[dict[str, set[str]]]:
    """The topic groups the Union stage searched, as one adjacency per group."""
    groups = [
        [t for t in g["trees"] if t in real]
        for g in cypher.read(driver, "leaper/find_topic_groups", database=database)
    ]
    return [{t: real[t] for t in g} for g in groups if len(g) >= 2]


def _scaled_groups(
    adjs: list[dict[str, set[str]]], copies: int, seed: int = 7
) -> list[dict[str, set[str]]]:
    """`copies` perturbed copies of each group (bench: ids): every tree keeps each relation with
    probability 0.9 and gains one from its group's relations with probability 0.2."""
    rng = random.Random(seed)
    out = []
    for k in range(copies):
        for adj in adjs:
            pool = sorted({r for rels in adj.values() for r in rels})
            copy: dict[str, set[str]] = {}
            for t, rels in sorted(adj.items()):  # sorted: the same copies in every process
                kept = {r for r in sorted(rels) if rng.random() < 0.9}
                if rng.random() < 0.2:
                    kept.add(rng.choice(pool))
                copy[f"bench:{k}:{t}"] = {f"bench:{k}:{r}" for r in kept}
            out.append(copy)
    return out


def _groups_case(
    label: str, adjs: list[dict[str, set[str]]], driver: neo4j.Driver, database: str | None
) -> list[str]:
    """Every group enumerated by each implementation (results asserted equal). The Cypher
    search takes all groups at once, as the Union stage does (one query per level); the second
    in-memory row also reads its input, the tree × relation graph, from the server."""
    adjs = [a for a in adjs if len(a) >= 2]
    if not adjs:
        return [f"{label}: no topic groups on the server (run the Union stage first)", ""]
    ref = [maximal_bicliques(a, min_trees=2, min_relations=2) for a in adjs]
    assert [maximal_bicliques_networkx(a, min_trees=2, min_relations=2) for a in adjs] == ref

    def run_cypher() -> list[list[Biclique] | None]:
        return maximal_bicliques_cypher_groups(
            driver, [sorted(a) for a in adjs], database=database, min_trees=2, min_relations=2
        )

    assert run_cypher() == ref
    total = sum(len(r) for r in ref)

    def run_all(fn: Callable[[dict[str, set[str]]], list[Biclique]]) -> int:
        return sum(len(fn(a)) for a in adjs)

    def read_then_enumerate() -> int:
        graph = _real_adjacency(driver, database, generated=True)
        return run_all(
            lambda a: maximal_bicliques(
                {t: graph.get(t, set()) for t in a}, min_trees=2, min_relations=2
            )
        )

    rows = [
        measure(
            REFERENCE,
            lambda: run_all(lambda a: maximal_bicliques(a, min_trees=2, min_relations=2)),
            repeat=3,
        ),
        measure("read the graph, then pure-Python CbO", read_then_enumerate, repeat=3),
        measure(
            "networkx find_cliques on reduction",
            lambda: run_all(lambda a: maximal_bicliques_networkx(a, min_trees=2, min_relations=2)),
            repeat=3,
        ),
        measure(
            "Cypher-driven CbO (all groups, by level)",
            lambda: sum(len(r or []) for r in run_cypher()),
            repeat=3,
        ),
    ]
    sizes = sorted((len(a) for a in adjs), reverse=True)
    edges = sum(len(rels) for a in adjs for rels in a.values())
    return [
        f"{label}: {len(adjs)} groups, {sum(sizes)} trees (largest {sizes[0]}, median "
        f"{sizes[len(sizes) // 2]}), {edges} edges, {total} maximal bicliques "
        "(>=2 trees, >=2 relations), equal in all three",
        *table(rows, REFERENCE, unit="bicliques"),
        "",
    ]


def _clean_generated(driver: neo4j.Driver, database: str | None) -> None:
    driver.execute_query(
        "MATCH (t:Tree) WHERE t.tree_id STARTS WITH 'bench:' DETACH DELETE t", database_=database
    )
    driver.execute_query(
        "MATCH (r:Relation) WHERE r.name STARTS WITH 'bench:' DETACH DELETE r", database_=database
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uri", default=os.environ.get("NEO4J_URI"))
    parser.add_argument("--password", default=os.environ.get("NEO4J_PASSWORD"))
    parser.add_argument("--database", default=os.environ.get("NEO4J_DATABASE"))
    parser.add_argument("--limit", type=int, default=None, help="stop each real run after N")
    parser.add_argument("--real-sample", type=int, default=300, help="trees of the real subgraph")
    parser.add_argument("--no-generated", action="store_true", help="real graph only")
    parser.add_argument(
        "--scale", type=int, default=10, help="copies of the real topic groups (generated case)"
    )
    args = parser.parse_args(argv)
    driver: neo4j.Driver | None = None
    if args.uri:
        from seekgraph.common.config import ConfigFile, resolve_settings
        from seekgraph.graphdb.driver import open_driver

        flags = {"uri": args.uri, "password": args.password, "database": args.database}
        driver = open_driver(resolve_settings(ConfigFile(), flags=flags).connection)
    lines: list[str] = []
    if driver is not None:
        real = _real_adjacency(driver, args.database)
        if len(real) >= 2:
            # The first trees by id: a slice of the real graph small enough for networkx.
            sample = {t: real[t] for t in sorted(real)[: args.real_sample]}
            lines += _case(
                f"real (server) first {len(sample)} trees", sample, driver, args.database, None
            )
            groups = _real_groups(real, driver, args.database)
            lines += _groups_case(
                "real topic groups (as searched by the Union stage)", groups, driver, args.database
            )
            if groups and args.scale > 1:
                scaled = _scaled_groups(groups, args.scale)
                _clean_generated(driver, args.database)
                write_tree_relations(
                    driver, {t: r for a in scaled for t, r in a.items()}, database=args.database
                )
                lines += _groups_case(
                    f"generated: the real topic groups x{args.scale} (perturbed copies)",
                    scaled,
                    driver,
                    args.database,
                )
                _clean_generated(driver, args.database)
            if args.limit is not None:
                lines += _case("real (server) all trees", real, driver, args.database, args.limit)
        else:
            lines.append("real graph: no trees with relations on the server")
    if not args.no_generated:
        for label, n_trees, n_rel in SIZES:
            adj = random_adjacency(n_trees, n_rel, mean_degree=4.0, seed=7)
            adj = {f"bench:{t}": {f"bench:{r}" for r in rels} for t, rels in adj.items()}
            if driver is not None:
                _clean_generated(driver, args.database)
                write_tree_relations(driver, adj, database=args.database)
            lines += _case(label, adj, driver, args.database, None)
            if driver is not None:
                _clean_generated(driver, args.database)
    for line in lines:
        print(line)
    write_markdown(
        Path("docs/benchmarks.md"),
        # Real-only runs get their own section so the generated measurements stay.
        "Maximal bicliques on the real graph"
        if args.no_generated
        else "Maximal bicliques (WebLeaper Union)",
        lines,
        "`python -m bench.bench_bicliques [--uri URI --password PW] [--limit N]`; complete runs "
        "return the same set in all three implementations (asserted). 2-core shared machine.",
    )
    if driver is not None:
        driver.close()


if __name__ == "__main__":
    main()
