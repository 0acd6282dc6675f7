"""Source tables written straight into the graph in the shape of docs/schema.md section 1.

For tests and benchmarks only (real tables come from `seekgraph ingest`): a `SourceTable` is a
key column of anchor entities plus attribute facts, and `generate_tables` makes many of them
with a controllable overlap of anchors and relations (the 10x-larger benchmark graph).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import neo4j

from tests.scaffolding import write_batches


@dataclass
class SourceRow:
    anchor_id: str
    anchor_name: str
    facts: list[tuple[str, str, str]] = field(default_factory=list)  # (relation, kind, text)


@dataclass
class SourceTable:
    table_id: str
    title: str
    section_title: str
    key_header: str
    rows: list[SourceRow]


def value_id(kind: str, text: str) -> str:
    return f"{kind}:{text.strip().lower()}"


def _rows(table: SourceTable) -> list[dict[str, Any]]:
    relations = sorted({rel for row in table.rows for rel, _, _ in row.facts})
    column = {rel: i + 1 for i, rel in enumerate(relations)}
    out = []
    for index, row in enumerate(table.rows):
        facts = []
        for rel, kind, text in row.facts:
            is_entity = kind == "entity"
            facts.append(
                {
                    "relation": rel,
                    "column": column[rel],
                    "kind": kind,
                    "id": text if is_entity else value_id(kind, text),
                    "text": text.removeprefix("/wiki/").replace("_", " ") if is_entity else text,
                    "normalized": text.strip().lower(),
                }
            )
        out.append(
            {
                "table_id": table.table_id,
                "title": table.title,
                "section_title": table.section_title,
                "key_header": table.key_header,
                "index": index,
                "anchor_id": row.anchor_id,
                "anchor_name": row.anchor_name,
                "facts": facts,
            }
        )
    return out


def write_source_tables(
    driver: neo4j.Driver,
    tables: list[SourceTable],
    database: str | None = None,
    batch_size: int = 500,
) -> int:
    """MERGE the tables, rows, anchors and facts; returns the number of rows written."""
    rows = [r for t in tables for r in _rows(t)]
    return write_batches(
        driver, "merge_source_rows", rows, database=database, batch_size=batch_size
    )


def write_tree_relations(
    driver: neo4j.Driver,
    adjacency: dict[str, set[str]],
    database: str | None = None,
    batch_size: int = 1000,
) -> int:
    """Bare trees and their relations (the bipartite graph alone), e.g. random test graphs."""
    rows = [
        {"tree_id": t, "root": t, "relations": sorted(rels)}
        for t, rels in sorted(adjacency.items())
    ]
    return write_batches(
        driver, "merge_tree_relations", rows, database=database, batch_size=batch_size
    )


def random_adjacency(
    n_trees: int, n_relations: int, mean_degree: float, seed: int = 0
) -> dict[str, set[str]]:
    """A tree × relation graph with skewed relation popularity (like real headers: few common
    relations such as `year`, many rare ones)."""
    rng = random.Random(seed)
    relations = [f"rel_{j:04d}" for j in range(n_relations)]
    weights = [1.0 / (j + 1) ** 0.9 for j in range(n_relations)]
    out: dict[str, set[str]] = {}
    for i in range(n_trees):
        k = max(1, min(n_relations, round(rng.expovariate(1.0 / mean_degree))))
        out[f"tree:{i:06d}"] = set(rng.choices(relations, weights=weights, k=k))
    return out
