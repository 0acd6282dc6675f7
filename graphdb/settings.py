"""Where Neo4j is and how to reach it. Precedence everywhere: CLI flag > config file > environment > default.

The config file is TOML (``--config FILE``, else ``$SEEKGRAPH_CONFIG``, else ``./seekgraph.toml``
when present) with sections ``[neo4j]`` (uri, username, password, database) and ``[server]``
(home, bolt_port, http_port, heap, pagecache, transaction_memory).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphdb.errors import ConfigError


def default_data_dir() -> Path:
    """The user's data directory for seekgraph (``$XDG_DATA_HOME/seekgraph``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "seekgraph"


@dataclass(frozen=True)
class ServerSettings:
    """The project's own Neo4j: where it lives, its ports and its memory bounds."""

    home: Path = field(default_factory=lambda: default_data_dir() / "neo4j")
    host: str = "127.0.0.1"
    bolt_port: int = 7687
    http_port: int = 7474
    heap: str = "768m"
    pagecache: str = "384m"
    transaction_memory: str = "384m"

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

    def describe(self) -> str:
        db = self.database or "(default)"
        return f"{self.uri} as {self.username}, database {db}"


@dataclass(frozen=True)
class Settings:
    server: ServerSettings
    connection: ConnectionSettings


# Every `[section]` some command reads; anything else is a typo and an error.
CONFIG_SECTIONS = frozenset(
    {
        "neo4j",
        "server",
        "llm",
        "pipeline",
        "synth",
        "leaper",
        "shaper",
        "agent",
        "prune",
        "training",
    }
)


def load_config_file(path: Path | None) -> dict[str, Any]:
    """Read the TOML config file; `path=None` looks at $SEEKGRAPH_CONFIG then ./seekgraph.toml."""
    candidate = path
    if candidate is None:
        env = os.environ.get("SEEKGRAPH_CONFIG")
        candidate = Path(env) if env else Path("seekgraph.toml")
        if not candidate.exists():
            return {}
    try:
        with open(candidate, "rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError as e:
        raise ConfigError(f"config file {candidate} does not exist") from e
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"config file {candidate} is not valid TOML: {e}") from e
    for section in data:
        if section not in CONFIG_SECTIONS:
            raise ConfigError(f"config file {candidate}: unknown section [{section}]")
    return data


def _pick(
    flag: Any, config: Mapping[str, Any], key: str, env: Mapping[str, str], env_key: str
) -> Any:
    if flag is not None:
        return flag
    if key in config:
        return config[key]
    if env_key in env:
        return env[env_key]
    return None


def resolve(
    flags: Mapping[str, Any] | None = None,
    config: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
) -> Settings:
    """Combine flags, the config file and the environment into `Settings`.

    A Neo4j URI from any source means an existing server (local install, cluster, Aura) is
    used; otherwise seekgraph's managed server with the generated password is used.
    """
    flags = flags or {}
    config = config or {}
    env = os.environ if env is None else env
    server_cfg = dict(config.get("server", {}))
    neo_cfg = dict(config.get("neo4j", {}))

    home = _pick(flags.get("home"), server_cfg, "home", env, "SEEKGRAPH_NEO4J_HOME")
    defaults = ServerSettings()
    try:
        server = ServerSettings(
            home=Path(home).expanduser().resolve() if home else defaults.home,
            bolt_port=int(
                _pick(flags.get("bolt_port"), server_cfg, "bolt_port", env, "SEEKGRAPH_BOLT_PORT")
                or defaults.bolt_port
            ),
            http_port=int(
                _pick(flags.get("http_port"), server_cfg, "http_port", env, "SEEKGRAPH_HTTP_PORT")
                or defaults.http_port
            ),
            heap=str(server_cfg.get("heap", env.get("SEEKGRAPH_NEO4J_HEAP", defaults.heap))),
            pagecache=str(
                server_cfg.get(
                    "pagecache", env.get("SEEKGRAPH_NEO4J_PAGECACHE", defaults.pagecache)
                )
            ),
            transaction_memory=str(
                server_cfg.get("transaction_memory", defaults.transaction_memory)
            ),
        )
    except ValueError as e:
        raise ConfigError(f"invalid server port: {e}") from e

    uri = _pick(flags.get("uri"), neo_cfg, "uri", env, "NEO4J_URI")
    username = _pick(flags.get("username"), neo_cfg, "username", env, "NEO4J_USERNAME") or "neo4j"
    password = _pick(flags.get("password"), neo_cfg, "password", env, "NEO4J_PASSWORD")
    database = _pick(flags.get("database"), neo_cfg, "database", env, "NEO4J_DATABASE")
    if uri:
        if password is None:
            raise ConfigError(
                f"NEO4J_URI is {uri} but no password was given "
                "(--password, [neo4j] password in the config file, or NEO4J_PASSWORD)"
            )
        connection = ConnectionSettings(
            str(uri),
            str(username),
            str(password),
            str(database) if database else None,
            managed=False,
        )
    else:
        stored = server.password_file.read_text().strip() if server.password_file.exists() else ""
        connection = ConnectionSettings(
            server.bolt_uri,
            "neo4j",
            str(password or stored),
            str(database) if database else None,
            managed=True,
        )
    return Settings(server=server, connection=connection)
