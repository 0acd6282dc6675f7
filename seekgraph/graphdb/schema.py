"""Applies the constraints and indexes in `seekgraph/cypher/schema/`, migrates an older graph,
and records the schema version.

The graph records the version it was built with (``(:SchemaVersion {name: 'seekgraph'})``).
`MIGRATIONS` lists one step per change, from the version before it: `apply_schema` runs the
steps from the recorded version on, in order, recording each step's version as it goes, so a
graph of any older version is brought up to `SCHEMA_VERSION`. A graph recording a newer version
than this seekgraph knows is refused with one line (upgrade seekgraph), before anything is
changed. A graph with data but no recorded version was built before versions were kept and is
treated as version 1 (every step is written so that running it on a graph that needs it only
in part, or not at all, is harmless); an empty graph is simply at the current version.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import neo4j

from seekgraph.graphdb import cypher
from seekgraph.graphdb.errors import GraphDBError

SCHEMA_FILES = ("schema/constraints", "schema/indexes", "agent/web_schema")
# Later stages (agent: full-text and vector indexes) append their files here through `extra`.


class SchemaVersionError(GraphDBError):
    """The graph was built by a newer seekgraph than this one."""


def _unquantize_vector_indexes(driver: neo4j.Driver, database: str | None) -> int:
    """Drop vector indexes built with quantization (the default of schema version 1): their
    scores depend on how the index segments were built, so two builds ranked the same pages
    differently. The schema files create them again, unquantized."""
    rows = cypher.read(driver, "schema/find_quantized_vector_indexes", database=database)
    for row in rows:
        # `name` comes from SHOW INDEXES, not from a user; an index name cannot be a parameter
        driver.execute_query(f"DROP INDEX `{row['name']}` IF EXISTS", database_=database)
    return len(rows)


def _retire_content_ids(driver: neo4j.Driver, database: str | None) -> int:
    """Retire CSV and HTML tables whose ids named their content (`csv:<path>@<digest>`):
    version 3 names a table by its source and path, so an edited file is a new version of one
    table. The old tables cannot be renamed (their source was never recorded), so they are
    retired as a table gone from its source is, and what was built on them goes stale;
    ingesting their folders again builds them under the new ids."""
    rows = [
        {
            "table_id": r["table_id"],
            "reason": f"table {r['table_id']} has an id of schema version 2",
            "detail": "its id named its content; ingest its folder again",
        }
        for r in cypher.read(driver, "schema/find_content_id_tables", database=database)
    ]
    for name in ("ingest/mark_derived_stale", "ingest/delete_table_parts", "ingest/retire_tables"):
        cypher.run_batches(driver, name, rows, database=database, batch_size=10)
    return len(rows)


@dataclass(frozen=True)
class Migration:
    """One change of the schema: what it does, from which version, and the step itself
    (returns how many statements it ran)."""

    from_version: int
    what: str
    step: Callable[[neo4j.Driver, str | None], int]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "vector indexes rebuilt unquantized", _unquantize_vector_indexes),
    Migration(2, "CSV and HTML tables named by source and path", _retire_content_ids),
)
# 3: CSV and HTML tables named by source and path (2: vector indexes unquantized)
SCHEMA_VERSION = MIGRATIONS[-1].from_version + 1


def recorded_version(driver: neo4j.Driver, database: str | None = None) -> int | None:
    """The version the graph records; 1 for a graph with data but no record (built before
    versions were kept); None for an empty graph."""
    row = cypher.read(driver, "schema/find_version", database=database)[0]
    if row["version"] is not None:
        return int(row["version"])
    return 1 if row["has_data"] else None


def migrate(
    driver: neo4j.Driver,
    database: str | None = None,
    echo: Callable[[str], None] | None = None,
) -> int:
    """Bring the graph to `SCHEMA_VERSION`: refuse a newer one, run the steps an older one
    needs (each recorded as done). Returns the statements run."""
    version = recorded_version(driver, database)
    if version is None:
        return 0
    if version > SCHEMA_VERSION:
        raise SchemaVersionError(
            f"the graph was built by a newer seekgraph (schema version {version}; this "
            f"seekgraph knows up to {SCHEMA_VERSION}) and is left as it is",
            hint="upgrade seekgraph (`pip install -U seekgraph`), or point it at another database",
        )
    count = 0
    for migration in MIGRATIONS:
        if migration.from_version < version:
            continue
        count += migration.step(driver, database)
        done = migration.from_version + 1
        cypher.write(driver, "schema/record_version", database=database, version=done)
        if echo is not None:
            echo(
                f"schema migrated from version {migration.from_version} to {done}: {migration.what}"
            )
    return count


def apply_schema(
    driver: neo4j.Driver,
    database: str | None = None,
    *,
    extra: tuple[str, ...] = (),
    timeout_seconds: int = 300,
    echo: Callable[[str], None] | None = None,
) -> int:
    """Migrate an older graph (`migrate`), create every constraint and index (IF NOT EXISTS),
    wait until ONLINE and record the version; returns the statements run. A graph newer than
    this seekgraph raises `SchemaVersionError` and is not touched."""
    count = migrate(driver, database, echo)
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
