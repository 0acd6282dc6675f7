"""`seekgraph db init` is idempotent and docs/schema.md covers every label it constrains."""

from __future__ import annotations

import neo4j

from seekgraph.graphdb.schema import SCHEMA_VERSION, apply_schema, describe_schema
from tests.conftest import REPO_ROOT


def test_init_twice_leaves_the_same_schema(driver: neo4j.Driver, database: str | None) -> None:
    apply_schema(driver, database)
    first = describe_schema(driver, database)
    apply_schema(driver, database)
    assert describe_schema(driver, database) == first
    records, _, _ = driver.execute_query(
        "MATCH (v:SchemaVersion {name: 'seekgraph'}) RETURN v.version AS v", database_=database
    )
    assert [r["v"] for r in records] == [SCHEMA_VERSION]


def test_schema_doc_mentions_every_constrained_label(
    driver: neo4j.Driver, database: str | None
) -> None:
    doc = (REPO_ROOT / "docs" / "schema.md").read_text()
    for row in describe_schema(driver, database)["constraints"]:
        for label in row["labelsOrTypes"]:
            assert f"`{label}`" in doc, f"docs/schema.md does not describe {label}"
