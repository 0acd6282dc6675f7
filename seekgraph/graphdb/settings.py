"""Where Neo4j is and how to reach it: the managed server's settings and a connection.

`ServerSettings` is the ``[server]`` section of the config file; its fields carry the help text
and checks (ports 1-65535, memory sizes with a unit) that the one config loader
(`seekgraph.common.config`) applies, which also decides precedence: flag > config file > environment >
default.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


def default_data_dir() -> Path:
    """The user's data directory for seekgraph (``$XDG_DATA_HOME/seekgraph``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "seekgraph"


@dataclass(frozen=True)
class ServerSettings:
    """The project's own Neo4j: where it lives, its ports and its memory bounds."""

    home: Path = field(
        default_factory=lambda: default_data_dir() / "neo4j",
        metadata={"help": "Home of the managed Neo4j (jars, data, logs, password)."},
    )
    host: str = field(default="127.0.0.1", metadata={"help": "Address to listen on."})
    bolt_port: int = field(default=7687, metadata={"help": "Bolt port.", "min": 1, "max": 65535})
    http_port: int = field(
        default=7474, metadata={"help": "HTTP port (Neo4j Browser).", "min": 1, "max": 65535}
    )
    heap: str = field(default="768m", metadata={"help": "JVM heap, e.g. 768m.", "memory": True})
    pagecache: str = field(
        default="384m", metadata={"help": "Page cache, e.g. 384m.", "memory": True}
    )
    transaction_memory: str = field(
        default="384m", metadata={"help": "Memory of all transactions.", "memory": True}
    )
    browser_post_connect: str = field(
        default="", metadata={"help": "A command Neo4j Browser runs after connecting."}
    )

    @property
    def bolt_uri(self) -> str:
        return f"bolt://{self.host}:{self.bolt_port}"

    @property
    def http_url(self) -> str:
        return f"http://{self.host}:{self.http_port}"

    @property
    def browser_url(self) -> str:
        return f"{self.http_url}/browser/?dbms={self.bolt_uri}"

    @property
    def password_file(self) -> Path:
        return self.home / "password"


@dataclass(frozen=True)
class ConnectionSettings:
    """How to reach a Neo4j; `managed` is true when it is the project's own server."""

    uri: str
    username: str
    password: str
    database: str | None
    managed: bool
    retry_seconds: float = 30.0  # how long a managed transaction is retried (driver setting)
    # (wait, stale) seconds of the graph's run lock ([neo4j] lock_wait_seconds, lock_stale_seconds)
    run_lock: tuple[float, float] = (300.0, 300.0)

    def describe(self) -> str:
        db = self.database or "(default)"
        return f"{self.uri} as {self.username}, database {db}"


@dataclass(frozen=True)
class Settings:
    server: ServerSettings
    connection: ConnectionSettings
