"""A Neo4j server of a test's own, for tests that stop, kill or replace their database."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import neo4j

from seekgraph.graphdb import server
from seekgraph.graphdb.driver import open_driver
from seekgraph.graphdb.settings import ConnectionSettings, ServerSettings
from tests.conftest import _installed_home


@contextmanager
def own_server(home: Path) -> Iterator[ServerSettings]:
    """A private server in `home` (small memory), started here and stopped on leaving."""
    settings = server.private_server(
        _installed_home(),
        home,
        heap="512m",
        pagecache="256m",
        transaction_memory="256m",
    )
    server.start(settings)
    try:
        yield settings
    finally:
        server.stop(settings, timeout=30.0)


def connect(settings: ServerSettings) -> neo4j.Driver:
    """A driver to a private server, logged in with the password it was started with."""
    password = settings.password_file.read_text().strip()
    return open_driver(ConnectionSettings(settings.bolt_uri, "neo4j", password, None, True))
