"""Applies the constraints and indexes in `seekgraph/cypher/schema/` and records the schema version."""

from __future__ import annotations

from typing import Any

import neo4j

from seekgraph.graphdb import cypher

SCHEMA_VERSION = 2  # 2: vector indexes unquantized
SCHEMA_FILES = ("schema/constraints", "schema/indexes", "agent/web_schema")
# Later stages (agent: full-text and vector indexes) append their files here through `extra`.


def apply_schema(
    driver: neo4j.Driver,
    database: str | None = None,
    *,
    extra: tuple[str, ...] = (),
    timeout_seconds: int = 300,
) -> int:
    """Create every constraint and index (IF NOT EXISTS), wait until ONLINE; returns statements run."""
    count = 0
    for row in cypher.read(driver, "schema/find_quantized_vector_indexes", database=database):
        # `name` comes from SHOW INDEXES, not from a user; an index name cannot be a parameter
        driver.execute_query(f"DROP INDEX `{row['name']}` IF EXISTS", database_=database)
        count += 1
    for name in (*SCHEMA_FILES, *extra):
        for statement in cypher.statements(name):
            driver.execute_query(statement, database_=database)
            count += 1
    driver.execute_query(
        cypher.query("schema/await_indexes"),
        {"timeout_seconds": timeout_seconds},
        database_=database,
    )
    cypher.write(driver, "schema/record_version", database=database, version=SCHEMA_VERSION)
    return count


def describe_schema(
    driver: neo4j.Driver, database: str | None = None
) -> dict[str, list[dict[str, Any]]]:
    """Constraints and (non-constraint) indexes as plain rows, for `db init` and the idempotence test."""
    return {
        "constraints": cypher.read(driver, "schema/list_constraints", database=database),
        "indexes": cypher.read(driver, "schema/list_indexes", database=database),
    }
