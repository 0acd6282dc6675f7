"""Read-only views of what ingest wrote, for `seekgraph show tables|entity` and the tests."""

from __future__ import annotations

from collections import Counter
from typing import Any

import neo4j

from seekgraph.graphdb import cypher


def list_tables(
    driver: neo4j.Driver, database: str | None = None, status: str | None = None
) -> list[dict[str, Any]]:
    """Tables (optionally only `kept` or `rejected`) with reason and key column."""
    return cypher.read(driver, "ingest/list_tables", database=database, status=status)


def entity_facts(
    driver: neo4j.Driver, entity_id: str, database: str | None = None
) -> list[dict[str, Any]]:
    """Every FACT of one entity: relation, table, row, column and the target's key."""
    return cypher.read(
        driver, "relations/list_entity_facts", database=database, entity_id=entity_id
    )


def shared_entities(driver: neo4j.Driver, database: str | None = None) -> int:
    """How many entities appear in cells of two or more tables (Union bridges)."""
    rows = cypher.read(driver, "ingest/count_shared_entities", database=database)
    return int(rows[0]["entities"]) if rows else 0


def status_lines(driver: neo4j.Driver, database: str | None = None) -> list[str]:
    """Tables kept/rejected by reason, shared entities, and node/relationship counts."""
    tables = list_tables(driver, database)
    by = Counter(t["reason"] or "kept" for t in tables)
    lines = [f"tables: {len(tables)}  kept {by.pop('kept', 0)}  rejected {sum(by.values())}"]
    lines += [f"  rejected {n:>6}  {reason}" for reason, n in by.most_common()]
    lines.append(f"entities in 2+ tables: {shared_entities(driver, database)}")
    counts = cypher.read(driver, "ingest/count_graph", database=database)
    lines += [f"  {row['kind']:<24} {row['n']:>9,}" for row in counts]
    return lines
