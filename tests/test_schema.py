"""`seekgraph db init` is idempotent and docs/schema.md covers every label it constrains."""

from __future__ import annotations

import neo4j
import pytest
from click.testing import CliRunner

from seekgraph.cli import main
from seekgraph.graphdb.schema import (
    SCHEMA_VERSION,
    SchemaVersionError,
    apply_schema,
    describe_schema,
    recorded_version,
)
from seekgraph.graphdb.settings import ConnectionSettings
from tests.conftest import REPO_ROOT, cli_login


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


def _vector_indexes(driver: neo4j.Driver, database: str | None) -> dict[str, bool]:
    """Vector index name -> whether it is quantized."""
    records, _, _ = driver.execute_query(
        "SHOW VECTOR INDEXES YIELD name, options "
        "RETURN name, options.indexConfig.`vector.quantization.enabled` AS quantized",
        database_=database,
    )
    return {r["name"]: r["quantized"] for r in records}


def _version(driver: neo4j.Driver, database: str | None) -> list[int]:
    records, _, _ = driver.execute_query(
        "MATCH (v:SchemaVersion) RETURN v.version AS v", database_=database
    )
    return [r["v"] for r in records]


def _write_version_1_graph(driver: neo4j.Driver, database: str | None, *, record: bool) -> None:
    """A graph as seekgraph wrote it at schema version 1: its page vector index quantized
    (Neo4j's default then), a page with an embedding, version 1 recorded (or, before
    versions were kept, nothing recorded)."""
    driver.execute_query("DROP INDEX page_embedding IF EXISTS", database_=database)
    driver.execute_query(
        "CREATE VECTOR INDEX page_embedding IF NOT EXISTS FOR (p:Page) ON (p.embedding) "
        "OPTIONS {indexConfig: {`vector.dimensions`: 384, "
        "`vector.similarity_function`: 'cosine'}}",
        database_=database,
    )
    driver.execute_query(
        "CREATE (:Page {page_id: '/wiki/A', title: 'A', text: 'a', embedding: $e})",
        {"e": [1.0] + [0.0] * 383},
        database_=database,
    )
    if record:
        driver.execute_query(
            "CREATE (:SchemaVersion {name: 'seekgraph', version: 1})", database_=database
        )
    assert _vector_indexes(driver, database)["page_embedding"] is True


@pytest.mark.parametrize("record", [True, False], ids=["version-1", "no-version-with-data"])
def test_a_graph_of_the_previous_version_is_migrated(
    clean_db: neo4j.Driver, database: str | None, record: bool
) -> None:
    _write_version_1_graph(clean_db, database, record=record)
    assert recorded_version(clean_db, database) == 1
    said: list[str] = []
    apply_schema(clean_db, database, echo=said.append)
    assert said == [
        "schema migrated from version 1 to 2: vector indexes rebuilt unquantized",
        "schema migrated from version 2 to 3: CSV and HTML tables named by source and path",
    ]
    assert _vector_indexes(clean_db, database)["page_embedding"] is False
    assert _version(clean_db, database) == [SCHEMA_VERSION]
    records, _, _ = clean_db.execute_query(
        "CALL db.index.vector.queryNodes('page_embedding', 1, $e) YIELD node "
        "RETURN node.page_id AS id",
        {"e": [1.0] + [0.0] * 383},
        database_=database,
    )
    assert [r["id"] for r in records] == ["/wiki/A"]  # the data survived, searchable again
    said.clear()
    apply_schema(clean_db, database, echo=said.append)
    assert said == []  # nothing left to migrate


def test_a_graph_of_version_2_retires_tables_named_by_their_content(
    clean_db: neo4j.Driver, database: str | None
) -> None:
    """Version 2 named a CSV table by its content (`csv:<path>@<digest>`); version 3 by its
    source and path. The old table is retired (no rows, no page) and what was built on it goes
    stale; a JSONL table, named by its record, is left alone."""
    clean_db.execute_query(
        "CREATE (:SchemaVersion {name: 'seekgraph', version: 2}) "
        "CREATE (old:Table {table_id: 'csv:extra/prizes.csv@0123abcd', status: 'kept'}) "
        "CREATE (old)-[:HAS_ROW]->(:Row {row_id: 'csv:extra/prizes.csv@0123abcd#r0'}) "
        "CREATE (:Page {page_id: 'table:csv:extra/prizes.csv@0123abcd'})-[:RENDERS]->(old) "
        "CREATE (tree:Tree {tree_id: 'tree:csv:extra/prizes.csv@0123abcd'})-[:FROM_TABLE]->(old) "
        "CREATE (task:Task {task_id: 'basic-1', status: 'kept'})-[:BUILT_FROM]->(tree) "
        "CREATE (:Rollout {rollout_id: 'basic-1/t/m/0', status: 'done', isr: 1.0})"
        "-[:FOR_TASK]->(task) "
        "CREATE (:Table {table_id: 'Booker_Prize_1', status: 'kept'})",
        database_=database,
    )
    said: list[str] = []
    apply_schema(clean_db, database, echo=said.append)
    assert said == [
        "schema migrated from version 2 to 3: CSV and HTML tables named by source and path"
    ]
    records, _, _ = clean_db.execute_query(
        "MATCH (t:Table) OPTIONAL MATCH (t)<-[:HAS_ROW|RENDERS]-(x) "
        "RETURN t.table_id AS id, t.status AS status, count(x) AS parts ORDER BY id",
        database_=database,
    )
    assert [(r["id"], r["status"], r["parts"]) for r in records] == [
        ("Booker_Prize_1", "kept", 0),
        ("csv:extra/prizes.csv@0123abcd", "retired", 0),
    ]
    records, _, _ = clean_db.execute_query(
        "MATCH (n) WHERE n:Tree OR n:Task OR n:Rollout "
        "RETURN labels(n)[0] AS label, n.status AS status, n.stale_reason AS why ORDER BY label",
        database_=database,
    )
    assert [(r["label"], r["status"]) for r in records] == [
        ("Rollout", "stale"),
        ("Task", "stale"),
        ("Tree", None),
    ]
    assert all("schema version 2" in r["why"] for r in records)


def test_an_empty_graph_is_at_the_current_version(
    clean_db: neo4j.Driver, database: str | None
) -> None:
    assert recorded_version(clean_db, database) is None
    said: list[str] = []
    apply_schema(clean_db, database, echo=said.append)
    assert said == [] and _version(clean_db, database) == [SCHEMA_VERSION]


def test_a_graph_of_a_newer_seekgraph_is_refused_untouched(
    clean_db: neo4j.Driver, database: str | None, neo4j_connection: ConnectionSettings
) -> None:
    newer = SCHEMA_VERSION + 1
    clean_db.execute_query(
        "MERGE (v:SchemaVersion {name: 'seekgraph'}) SET v.version = $v",
        {"v": newer},
        database_=database,
    )
    clean_db.execute_query("DROP INDEX task_question IF EXISTS", database_=database)
    try:
        before = describe_schema(clean_db, database)
        with pytest.raises(SchemaVersionError, match="newer seekgraph") as refused:
            apply_schema(clean_db, database)
        assert "upgrade seekgraph" in refused.value.one_line()
        result = CliRunner().invoke(main, [*cli_login(neo4j_connection), "db", "init"])
        assert result.exit_code != 0
        lines = result.output.strip().splitlines()
        assert len(lines) == 1, result.output
        assert lines[0].startswith(
            f"Error: the graph was built by a newer seekgraph (schema version {newer}; "
        )
        assert lines[0].endswith(
            "(upgrade seekgraph (`pip install -U seekgraph`), or point it at another database)"
        )
        assert describe_schema(clean_db, database) == before  # nothing created
        assert _version(clean_db, database) == [newer]
    finally:  # the session's graph goes back to this version for the other tests
        clean_db.execute_query("MATCH (v:SchemaVersion) DELETE v", database_=database)
        apply_schema(clean_db, database)
    assert "task_question" in {r["name"] for r in describe_schema(clean_db, database)["indexes"]}
