"""The same input gives the same graph: the default data built twice from empty, by two
`seekgraph pipeline` processes with different hash seeds (so set and dict order may differ),
through synthesis, rollouts, scoring, filtering and pruning, has identical fingerprints."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import neo4j
import pytest

from graphdb.settings import ConnectionSettings
from seekgraph.pipeline import STAGES as PIPELINE
from tests.conftest import cli_login, wipe
from tests.scaffolding.fingerprint import describe, fingerprint

# every default stage up to and including pruning, in pipeline order
_DEFAULT = [stage.name for stage in PIPELINE if not stage.optional]
STAGES = _DEFAULT[: _DEFAULT.index("prune") + 1]


def empty(driver: neo4j.Driver, database: str | None) -> None:
    """As empty as a new database: no nodes, and no full-text or vector index (Lucene keeps
    the term statistics of deleted documents, which would change search scores)."""
    wipe(driver, database)
    indexes = driver.execute_query(
        "SHOW INDEXES YIELD name, type WHERE type IN ['FULLTEXT', 'VECTOR'] RETURN name",
        database_=database,
    ).records
    for record in indexes:
        driver.execute_query(f"DROP INDEX `{record['name']}`", database_=database)


def build(connection: ConnectionSettings, out: Path, hash_seed: str) -> None:
    """One fresh build in its own process."""
    config = out / "seekgraph.toml"
    out.mkdir(parents=True)
    # rewriting thoughts runs a model; its choice is tested apart
    config.write_text("[prune]\nrewrite_limit = 0\n")
    only = [arg for stage in STAGES for arg in ("--only", stage)]
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    command = [sys.executable, "-m", "seekgraph", "--config", str(config), *cli_login(connection)]
    done = subprocess.run(
        [*command, "pipeline", "--out", str(out), *only],
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.slow
def test_two_fresh_builds_are_identical(
    clean_db: neo4j.Driver,
    database: str | None,
    neo4j_connection: ConnectionSettings,
    tmp_path: Path,
) -> None:
    empty(clean_db, database)
    build(neo4j_connection, tmp_path / "a", hash_seed="1")
    first_nodes, first_rels = fingerprint(clean_db, database)
    empty(clean_db, database)
    build(neo4j_connection, tmp_path / "b", hash_seed="2")
    nodes, rels = fingerprint(clean_db, database)
    assert sum(first_nodes.values()) > 1000
    only_second = set(nodes) - set(first_nodes)
    assert nodes == first_nodes, describe(clean_db, database, only_second)[:10]
    assert rels == first_rels, (sum(rels.values()), sum(first_rels.values()))
