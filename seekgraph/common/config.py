"""The one configuration loader: TOML sections into typed dataclasses, checked field by field.

Every setting of seekgraph is a field of a dataclass declared with `option` (its default, its
help text and, where it matters, a range, a set of choices or a memory size). `load_section`
builds such a dataclass from one ``[section]`` of the config file, plus command-line flags on
top; an unknown key, a value of the wrong type or one out of range is a `ConfigError` that
names the file, the section and the key. The same rules hold in every section:

- booleans only from TOML booleans (``"no"`` is not false, it is an error);
- integers only from integers, numbers from integers or floats, strings only from strings;
- lists from TOML arrays; tables (``dict[str, float]``) from TOML tables;
- ``min``/``max`` bound numbers, ``choices`` bound strings, ``memory`` asks for ``512m``/``2g``.

Precedence everywhere: command-line flag > config file > environment (connection settings only)
> default. Example::

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Demo:
    ...     port: int = option(7687, "Bolt port.", min=1, max=65535)
    >>> load_section(Demo, {"port": 7688}, source="demo.toml", section="server").port
    7688
"""

from __future__ import annotations

import dataclasses
import os
import re
import tomllib
import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from seekgraph.graphdb.errors import ConfigError
from seekgraph.graphdb.settings import ConnectionSettings, ServerSettings, Settings

T = TypeVar("T")
_MEMORY = re.compile(r"^[1-9][0-9]*[kmgKMG]$")


def option(
    default: Any,
    help: str,
    *,
    min: float | None = None,
    max: float | None = None,
    choices: Iterable[str] | None = None,
    memory: bool = False,
) -> Any:
    """A dataclass field with its help text and the checks `load_section` applies."""
    metadata: dict[str, Any] = {"help": help}
    if min is not None:
        metadata["min"] = min
    if max is not None:
        metadata["max"] = max
    if choices is not None:
        metadata["choices"] = tuple(choices)
    if memory:
        metadata["memory"] = True
    if isinstance(default, list | dict | set):
        raise TypeError("use a tuple (or a default_factory) for a mutable default")
    return field(default=default, metadata=metadata)


def help_of(f: dataclasses.Field[Any]) -> str:
    """The help text of a field declared with `option` ('' otherwise)."""
    return str(f.metadata.get("help", ""))


def _kind(value: Any) -> str:
    return f"{type(value).__name__} {value!r}"[:80]


def _coerce(value: Any, annotation: Any, where: str) -> Any:
    """`value` as `annotation` requires, or a ConfigError saying what was expected."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin in (types.UnionType, typing.Union):
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return _coerce(value, inner[0], where)
    if origin is typing.Literal:
        if value not in args:
            raise ConfigError(f"{where}: expected one of {list(args)}, got {_kind(value)}")
        return value
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise ConfigError(f"{where}: expected a list, got {_kind(value)}")
        item = args[0] if args else str
        return tuple(_coerce(v, item, f"{where}[{i}]") for i, v in enumerate(value))
    if origin is dict:
        if not isinstance(value, Mapping):
            raise ConfigError(f"{where}: expected a table, got {_kind(value)}")
        key_type, value_type = args or (str, Any)
        return {
            _coerce(k, key_type, where): _coerce(v, value_type, f"{where}.{k}")
            for k, v in value.items()
        }
    if annotation is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: expected true or false, got {_kind(value)}")
        return value
    if annotation is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{where}: expected an integer, got {_kind(value)}")
        return value
    if annotation is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(f"{where}: expected a number, got {_kind(value)}")
        return float(value)
    if annotation is str:
        if not isinstance(value, str):
            raise ConfigError(f"{where}: expected a string, got {_kind(value)}")
        return value
    if annotation is Path:
        if not isinstance(value, str | os.PathLike):
            raise ConfigError(f"{where}: expected a path, got {_kind(value)}")
        return Path(value).expanduser()
    return value


def _check(value: Any, f: dataclasses.Field[Any], where: str) -> None:
    meta = f.metadata
    if value is None:
        return
    if "min" in meta and isinstance(value, int | float) and value < meta["min"]:
        raise ConfigError(f"{where}: must be at least {meta['min']}, got {value!r}")
    if "max" in meta and isinstance(value, int | float) and value > meta["max"]:
        raise ConfigError(f"{where}: must be at most {meta['max']}, got {value!r}")
    if "choices" in meta:
        values = value if isinstance(value, tuple) else (value,)
        for v in values:
            if v not in meta["choices"]:
                raise ConfigError(f"{where}: expected one of {list(meta['choices'])}, got {v!r}")
    if meta.get("memory") and not _MEMORY.match(str(value)):
        raise ConfigError(
            f"{where}: expected a memory size with a unit such as 512m or 2g, got {value!r}"
        )


def load_section(
    cls: type[T],
    values: Mapping[str, Any],
    *,
    source: str = "config",
    section: str = "",
    flags: Mapping[str, Any] | None = None,
) -> T:
    """Build `cls` from a section's `values`, with non-None `flags` on top.

    Raises `ConfigError` naming `source`, `section` and the key for an unknown key, a wrong
    type or a value out of range.
    """
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    label = f"{source} [{section}]" if section else source
    unknown = sorted(set(values) - set(fields))
    if unknown:
        raise ConfigError(
            f"{label}: unknown setting {unknown[0]!r}; known settings: {', '.join(sorted(fields))}"
        )
    merged: dict[str, tuple[Any, str]] = {k: (v, f"{label} {k}") for k, v in values.items()}
    for key, value in (flags or {}).items():
        if value is None:
            continue
        if key not in fields:
            raise ConfigError(f"flag --{key.replace('_', '-')} is not a setting of [{section}]")
        merged[key] = (value, f"--{key.replace('_', '-')}")
    out: dict[str, Any] = {}
    for key, (value, where) in merged.items():
        coerced = _coerce(value, hints[key], where)
        _check(coerced, fields[key], where)
        out[key] = coerced
    try:
        return cls(**out)
    except ValueError as e:  # a __post_init__ cross-field check
        raise ConfigError(f"{label}: {e}") from e


def describe(cls: type[Any]) -> list[tuple[str, Any, str]]:
    """``(name, default, help)`` of every setting of `cls` (CLI flags, docs)."""
    out = []
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            default = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        else:
            default = None
        out.append((f.name, default, help_of(f)))
    return out


@dataclass(frozen=True)
class ConfigFile:
    """The TOML config file: where it came from and its sections as plain tables."""

    path: Path | None = None
    sections: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def source(self) -> str:
        return str(self.path) if self.path else "defaults"

    def section(self, name: str) -> dict[str, Any]:
        return dict(self.sections.get(name, {}))

    def load(self, cls: type[T], section: str, flags: Mapping[str, Any] | None = None) -> T:
        """`load_section` over this file's `[section]`."""
        return load_section(
            cls, self.section(section), source=self.source, section=section, flags=flags
        )


def read_config_file(path: Path | None, known_sections: Iterable[str]) -> ConfigFile:
    """Read the TOML config (`path`, else ``$SEEKGRAPH_CONFIG``, else ``./seekgraph.toml``).

    Only an explicitly named file must exist. Every top-level key must be a known section.
    """
    candidate = path
    if candidate is None:
        env = os.environ.get("SEEKGRAPH_CONFIG")
        candidate = Path(env) if env else Path("seekgraph.toml")
        if not env and not candidate.exists():
            return ConfigFile()
    try:
        with open(candidate, "rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError as e:
        raise ConfigError(f"config file {candidate} does not exist") from e
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"config file {candidate} is not valid TOML: {e}") from e
    known = set(known_sections)
    sections: dict[str, dict[str, Any]] = {}
    for name, body in data.items():
        if name not in known:
            raise ConfigError(
                f"config file {candidate}: unknown section [{name}]; sections: "
                f"{', '.join(sorted(known))}"
            )
        if not isinstance(body, dict):
            raise ConfigError(f"config file {candidate}: [{name}] must be a table of settings")
        sections[name] = body
    return ConfigFile(candidate, sections)


# --- connection settings: flag > config file > environment > default -------------------------

ENV_SERVER = {
    "home": "SEEKGRAPH_NEO4J_HOME",
    "bolt_port": "SEEKGRAPH_BOLT_PORT",
    "http_port": "SEEKGRAPH_HTTP_PORT",
    "heap": "SEEKGRAPH_NEO4J_HEAP",
    "pagecache": "SEEKGRAPH_NEO4J_PAGECACHE",
}
ENV_NEO4J = {
    "uri": "NEO4J_URI",
    "username": "NEO4J_USERNAME",
    "password": "NEO4J_PASSWORD",
    "database": "NEO4J_DATABASE",
}


@dataclass(frozen=True)
class Neo4jSection:
    """``[neo4j]``: an existing Neo4j to use instead of the managed one, and how long to
    retry a lost connection (either server)."""

    uri: str = option("", "Bolt or neo4j:// URI of an existing server (empty: the managed one).")
    username: str = option("neo4j", "User name.")
    password: str = option("", "Password (required with a uri).")
    database: str = option("", "Database name (empty: the server's default).")
    retry_seconds: float = option(
        30.0,
        "How long a transaction is retried after a lost connection or a transient error "
        "before the stage stops with one line (the driver's max_transaction_retry_time; "
        "also for the managed server).",
        min=0.0,
    )
    lock_wait_seconds: float = option(
        300.0,
        "How long a stage that rewrites shared parts (ingest, relations, leaper-trees) waits "
        "for another run holding the graph's run lock before it stops with one line naming "
        "the holder (0: do not wait).",
        min=0.0,
    )
    lock_stale_seconds: float = option(
        300.0,
        "A run lock whose holder sent no heartbeat for this long is broken (a holder on this "
        "host whose process is gone is broken at once).",
        min=1.0,
    )


def _from_env(env: Mapping[str, str], names: Mapping[str, str], cls: type[Any]) -> dict[str, Any]:
    """Environment values for `cls`'s fields, converted from text by the field's type."""
    hints = typing.get_type_hints(cls)
    out: dict[str, Any] = {}
    for key, var in names.items():
        if var not in env:
            continue
        raw = env[var]
        if hints[key] is int:
            try:
                out[key] = int(raw)
            except ValueError as e:
                raise ConfigError(f"${var}: expected an integer, got {raw!r}") from e
        else:
            out[key] = raw
    return out


def resolve_settings(
    config: ConfigFile,
    *,
    flags: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
) -> Settings:
    """Combine flags, the config file and the environment into `Settings`.

    A Neo4j URI from any source means an existing server (local, cluster or Aura) is used;
    otherwise seekgraph's managed server with its generated password.
    """
    flags = dict(flags or {})
    env = os.environ if env is None else env
    server_values = {**_from_env(env, ENV_SERVER, ServerSettings), **config.section("server")}
    server_flags = {k: flags.get(k) for k in ("home", "bolt_port", "http_port")}
    server = load_section(
        ServerSettings, server_values, source=config.source, section="server", flags=server_flags
    )
    neo_values = {**_from_env(env, ENV_NEO4J, Neo4jSection), **config.section("neo4j")}
    neo_flags = {k: flags.get(k) for k in ("uri", "username", "password", "database")}
    neo = load_section(
        Neo4jSection, neo_values, source=config.source, section="neo4j", flags=neo_flags
    )
    database = neo.database or None
    locks = (neo.lock_wait_seconds, neo.lock_stale_seconds)
    if neo.uri:
        if not neo.password:
            raise ConfigError(
                f"Neo4j URI {neo.uri} given but no password "
                "(--password, [neo4j] password in the config file, or NEO4J_PASSWORD)"
            )
        connection = ConnectionSettings(
            neo.uri, neo.username, neo.password, database, False, neo.retry_seconds, locks
        )
    else:
        stored = server.password_file.read_text().strip() if server.password_file.exists() else ""
        connection = ConnectionSettings(
            server.bolt_uri,
            "neo4j",
            neo.password or stored,
            database,
            True,
            neo.retry_seconds,
            locks,
        )
    return Settings(server=server, connection=connection)


def load_stage_config(
    stage: Any,
    config: ConfigFile,
    flags: Mapping[str, Any] | None = None,
    extra: ConfigFile | None = None,
) -> Any:
    """A stage's config: its defaults, the config file's section, a stage-level config file's
    section (`extra`), then flags. `stage` is a `seekgraph.graphdb.stages.Stage`."""
    values = {**dict(stage.defaults), **config.section(stage.section)}
    source = config.source
    if extra is not None and stage.section in extra.sections:
        values.update(extra.section(stage.section))
        source = extra.source
    return load_section(stage.config, values, source=source, section=stage.section, flags=flags)
