"""Every Cypher file parses on the real server (EXPLAIN) and is used by some code."""

from __future__ import annotations

import re

import neo4j
import pytest

from seekgraph.graphdb import cypher
from seekgraph.graphdb.errors import CypherFileError
from tests.conftest import REPO_ROOT

CODE_DIRS = ["seekgraph", "bench"]


def _code_text() -> str:
    chunks = []
    for folder in CODE_DIRS:
        for path in (REPO_ROOT / folder).rglob("*.py"):
            chunks.append(path.read_text(encoding="utf-8"))
    return "\n".join(chunks)


def test_every_cypher_file_is_used_by_code() -> None:
    code = _code_text()
    unused = [
        name
        for name in cypher.all_query_names()
        if f'"{name}"' not in code and f"'{name}'" not in code
    ]
    assert not unused, f"Cypher files no code loads by name: {unused}"


@pytest.mark.parametrize("name", cypher.all_query_names())
def test_every_cypher_statement_explains(driver: neo4j.Driver, name: str) -> None:
    for statement in cypher.statements(name):
        params = {p: None for p in re.findall(r"\$([A-Za-z_][A-Za-z0-9_]*)", statement)}
        driver.execute_query("EXPLAIN " + statement, params)


def test_unknown_query_name_is_a_clear_error() -> None:
    with pytest.raises(CypherFileError, match="no Cypher file"):
        cypher.query("no/such_query")
    with pytest.raises(CypherFileError, match="invalid query name"):
        cypher.query("../etc/passwd")


def test_labels_are_checked_against_an_allow_list() -> None:
    assert cypher.check_identifier("Entity", {"Entity", "Value"}) == "Entity"
    with pytest.raises(CypherFileError):
        cypher.check_identifier("Entity) DETACH DELETE (x", {"Entity"})
