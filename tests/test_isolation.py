"""The test command never touches a server it did not start.

A user who points NEO4J_URI (and a ./seekgraph.toml) at their own Neo4j and then runs the tests
must not lose their database: the suite starts its own server and ignores both. Proof: a Bolt
"server" that only counts connections is named everywhere a user could name one, a database
test runs in a fresh pytest, and the counter stays at zero.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT


class ConnectionCounter:
    """A TCP listener on a free port that accepts and counts connections, then hangs up."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = int(self.sock.getsockname()[1])
        self.connections = 0
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def user_server() -> Iterator[ConnectionCounter]:
    counter = ConnectionCounter()
    try:
        yield counter
    finally:
        counter.close()


@pytest.mark.slow
def test_a_server_named_by_the_user_is_never_contacted(
    user_server: ConnectionCounter, tmp_path: Path
) -> None:
    uri = f"bolt://127.0.0.1:{user_server.port}"
    config = tmp_path / "seekgraph.toml"
    config.write_text(f'[neo4j]\nuri = "{uri}"\npassword = "users-own-password"\n')
    env = {
        **os.environ,
        "NEO4J_URI": uri,
        "NEO4J_USERNAME": "neo4j",
        "NEO4J_PASSWORD": "users-own-password",
        "SEEKGRAPH_CONFIG": str(config),
    }
    # a database test that wipes the graph (clean_db) and writes the schema
    target = "tests/test_schema.py::test_an_empty_graph_is_at_the_current_version"
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", target],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "passed" in result.stdout
    assert user_server.connections == 0
