"""Backups of the managed server's graph: `seekgraph db dump FILE` and `seekgraph db restore FILE`.

Neo4j 5 Community dumps and loads a database only while it is stopped (`neo4j-admin database
dump/load`), so both stop the managed server when it runs and start it again afterwards.

A backup FILE is a tar archive of two members: ``manifest.json`` (first) and ``neo4j.dump``
(the admin tool's archive of the database). The manifest records the Neo4j version that wrote
the store, the graph's schema version (`seekgraph.graphdb.schema`), the seekgraph version, the
dump's size and SHA-256, and the graph's node and relationship counts. `restore` checks all of
it before it stops anything: a file that is not such an archive, a damaged dump (checksum, or
the admin tool cannot read it: ``load --info``), a dump of another Neo4j version or of a newer
schema is refused with one line and the current graph is untouched. The current store is moved
aside, not deleted, until the load has succeeded (and the server, when it ran, has started on
the loaded graph); a failed load puts it back.

An external server (``[neo4j] uri``) is not managed by seekgraph: its backups are made on its
own host with the same admin tool (`EXTERNAL_HINT`, docs/neo4j.md).
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import neo4j

from seekgraph.graphdb import cypher, server, server_files
from seekgraph.graphdb.errors import GraphDBError, ServerError
from seekgraph.graphdb.schema import SCHEMA_VERSION, recorded_version
from seekgraph.graphdb.settings import ServerSettings

FORMAT = "seekgraph-dump"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
EXTERNAL_HINT = (
    "on the server's host, with its database stopped: `neo4j-admin database dump neo4j "
    "--to-path=DIR` to back up, `neo4j-admin database load neo4j --from-path=DIR "
    "--overwrite-destination=true` to restore (docs/neo4j.md, Backups)"
)


class BackupError(GraphDBError):
    """A backup file cannot be restored (not a dump, damaged, or of another version)."""


@dataclass(frozen=True)
class BackupResult:
    """What `dump` wrote or `restore` loaded, and how long it took (server stop/start included)."""

    file: Path
    manifest: dict[str, Any]
    seconds: float
    restarted: bool


def neo4j_version() -> str:
    """The Neo4j version the managed server is assembled from (the pom's ``neo4j.version``)."""
    match = re.search(r"<neo4j\.version>([^<]+)</neo4j\.version>", server_files.POM.read_text())
    if match is None:
        raise ServerError(f"no <neo4j.version> in {server_files.POM}")
    return match.group(1).strip()


def _seekgraph_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("seekgraph")
    except PackageNotFoundError:
        return "unknown"


def _admin(settings: ServerSettings, *args: str) -> subprocess.CompletedProcess[str]:
    """Run `neo4j-admin` (the admin tool in the home's jars) with the home's configuration."""
    home = settings.home
    server_files.write_config(settings)
    cmd = ["java", "-cp", f"{home / 'lib'}/*", "org.neo4j.cli.AdminTool", *args]
    env = {**os.environ, "NEO4J_HOME": str(home), "NEO4J_CONF": str(home / "conf")}
    try:
        return subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    except FileNotFoundError as e:
        raise ServerError("neo4j-admin needs `java` on PATH", hint="install Java 17") from e


def _last_lines(result: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
    return " | ".join(lines[-4:])[-500:]


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _graph_facts(settings: ServerSettings, database: str) -> dict[str, Any]:
    """The running server's graph: its schema version and its node and relationship counts."""
    password = settings.password_file.read_text().strip()
    with neo4j.GraphDatabase.driver(settings.bolt_uri, auth=("neo4j", password)) as driver:
        counts = cypher.read(driver, "graphdb/count_nodes_and_relationships", database=database)
        return {"schema_version": recorded_version(driver, database), **counts[0]}


@contextlib.contextmanager
def _stopped(settings: ServerSettings, restart: bool) -> Iterator[None]:
    """The server stopped while the body runs, started again afterwards when `restart`."""
    server.stop(settings)
    try:
        yield
    finally:
        if restart:
            server.start(settings)


def dump(
    settings: ServerSettings,
    file: Path,
    *,
    database: str = "neo4j",
    overwrite: bool = False,
    echo: Callable[[str], None] = print,
) -> BackupResult:
    """Dump the managed server's `database` into the backup `file` (see the module docstring).

    A running server is stopped for the dump and started again; a stopped one is started
    briefly first, to read the graph's schema version for the manifest."""
    started = time.monotonic()
    if file.exists() and not overwrite:
        raise BackupError(f"{file} already exists", hint="choose another file or pass --overwrite")
    if not server_files.is_installed(settings):
        raise ServerError(f"Neo4j is not installed in {settings.home}: run `seekgraph db install`")
    was_running = server.status(settings).process_alive
    if not was_running:
        echo("starting Neo4j briefly to read the graph's schema version")
        server.start(settings)
    try:
        facts = _graph_facts(settings, database)
    except BaseException:
        if not was_running:
            server.stop(settings)
        raise
    file.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".dump-", dir=file.parent) as work:
        folder = Path(work)
        echo("stopping Neo4j for the dump" if was_running else "stopping Neo4j again")
        with _stopped(settings, restart=was_running):
            result = _admin(settings, "database", "dump", database, f"--to-path={folder}")
            if result.returncode != 0:
                raise ServerError(
                    f"neo4j-admin database dump failed (exit {result.returncode}): "
                    f"{_last_lines(result)}"
                )
        archive = folder / f"{database}.dump"
        manifest = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "neo4j_version": neo4j_version(),
            "schema_version": facts["schema_version"],
            "seekgraph_version": _seekgraph_version(),
            "database": database,
            "nodes": facts["nodes"],
            "relationships": facts["relationships"],
            "dump_file": "neo4j.dump",
            "dump_bytes": archive.stat().st_size,
            "dump_sha256": _sha256(archive),
            "created_at": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        }
        partial = folder / "backup.tar"
        with tarfile.open(partial, "w") as tar:
            body = (json.dumps(manifest, indent=1) + "\n").encode()
            info = tarfile.TarInfo(MANIFEST)
            info.size, info.mtime, info.mode = len(body), int(time.time()), 0o644
            tar.addfile(info, io.BytesIO(body))
            tar.add(archive, arcname="neo4j.dump")
        os.replace(partial, file)  # a complete file or none
    return BackupResult(file, manifest, time.monotonic() - started, was_running)


def read_manifest(file: Path) -> dict[str, Any]:
    """The manifest of backup `file`, checked against this seekgraph and its Neo4j; raises
    `BackupError` (one line) for anything that is not a restorable backup."""
    not_dump = f"{file} is not a seekgraph dump"
    hint = "give a file written by `seekgraph db dump`"
    if not file.is_file():
        raise BackupError(f"{file} does not exist or is not a file", hint=hint)
    try:
        with tarfile.open(file, "r:") as tar:
            member = tar.getmember(MANIFEST)
            handle = tar.extractfile(member)
            if handle is None:
                raise BackupError(f"{not_dump}: its {MANIFEST} is not a file", hint=hint)
            manifest = json.loads(handle.read(1 << 20).decode("utf-8"))
            dump_member = tar.getmember("neo4j.dump")
    except (tarfile.TarError, OSError) as e:
        raise BackupError(f"{not_dump} (not a tar archive: {e})", hint=hint) from e
    except KeyError as e:
        raise BackupError(f"{not_dump} (no {e.args[0].split()[1]} in it)", hint=hint) from e
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise BackupError(f"{not_dump} (its {MANIFEST} is not JSON: {e})", hint=hint) from e
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupError(f"{not_dump} (its {MANIFEST} is not a seekgraph manifest)", hint=hint)
    if manifest.get("format_version") != FORMAT_VERSION:
        raise BackupError(
            f"{file} has backup format {manifest.get('format_version')}, this seekgraph reads "
            f"{FORMAT_VERSION}",
            hint="restore it with the seekgraph that wrote it",
        )
    ours = neo4j_version()
    if manifest.get("neo4j_version") != ours:
        raise BackupError(
            f"{file} was dumped from Neo4j {manifest.get('neo4j_version')}, this server is "
            f"Neo4j {ours}; the current graph is left as it is",
            hint=f"load it with Neo4j {manifest.get('neo4j_version')}'s neo4j-admin, or migrate "
            "it there and dump it again",
        )
    schema = manifest.get("schema_version")
    if isinstance(schema, int) and schema > SCHEMA_VERSION:
        raise BackupError(
            f"{file} holds a graph of schema version {schema}, newer than this seekgraph's "
            f"{SCHEMA_VERSION}; the current graph is left as it is",
            hint=f"upgrade seekgraph (it was written by seekgraph "
            f"{manifest.get('seekgraph_version')})",
        )
    if dump_member.size != manifest.get("dump_bytes"):
        raise BackupError(
            f"{file} is damaged: its dump has {dump_member.size} bytes, the manifest says "
            f"{manifest.get('dump_bytes')}; the current graph is left as it is",
            hint="restore another copy",
        )
    return manifest


def _store_dirs(settings: ServerSettings, database: str) -> list[Path]:
    data = settings.home / "data"
    return [data / "databases" / database, data / "transactions" / database]


def restore(
    settings: ServerSettings,
    file: Path,
    *,
    database: str = "neo4j",
    echo: Callable[[str], None] = print,
) -> BackupResult:
    """Replace the managed server's `database` with the graph in backup `file` (see the module
    docstring); refuses, with the current graph untouched, anything it cannot load."""
    started = time.monotonic()
    manifest = read_manifest(file)
    if not server_files.is_installed(settings):
        raise ServerError(f"Neo4j is not installed in {settings.home}: run `seekgraph db install`")
    (settings.home / "data").mkdir(parents=True, exist_ok=True)
    # beside the store (same file system: moving the current store aside is a rename)
    with tempfile.TemporaryDirectory(prefix=".restore-", dir=settings.home / "data") as work:
        folder = Path(work)
        incoming = folder / "incoming"
        incoming.mkdir()
        with tarfile.open(file, "r:") as tar:
            source = tar.extractfile("neo4j.dump")
            assert source is not None  # checked by read_manifest
            with source, (incoming / f"{database}.dump").open("wb") as target:
                shutil.copyfileobj(source, target, 1 << 20)
        if _sha256(incoming / f"{database}.dump") != manifest.get("dump_sha256"):
            raise BackupError(
                f"{file} is damaged: its dump's SHA-256 differs from the manifest's; the "
                "current graph is left as it is",
                hint="restore another copy",
            )
        info = _admin(settings, "database", "load", database, f"--from-path={incoming}", "--info")
        if info.returncode != 0:
            raise BackupError(
                f"{file}: neo4j-admin cannot read its dump ({_last_lines(info)}); the current "
                "graph is left as it is",
                hint="restore another copy",
            )
        was_running = server.status(settings).process_alive
        echo("stopping Neo4j for the restore" if was_running else "Neo4j is stopped: loading")
        server.stop(settings)
        try:
            kept = _load_keeping_previous(settings, database, incoming, folder / "previous")
        except BackupError:
            if was_running:
                server.start(settings)
            raise
        if was_running:
            try:
                server.start(settings)
            except ServerError as e:
                server.stop(settings)
                _put_back(_store_dirs(settings, database), kept)
                server.start(settings)
                raise BackupError(
                    f"Neo4j did not start on the restored graph ({e.one_line()[:300]}); the "
                    "previous graph was put back",
                    hint="see `seekgraph db logs`",
                ) from e
    if manifest.get("schema_version") not in (None, SCHEMA_VERSION):
        echo(
            f"the restored graph has schema version {manifest['schema_version']}: the next "
            "`seekgraph db init` (or any stage) migrates it"
        )
    return BackupResult(file, manifest, time.monotonic() - started, was_running)


def _put_back(stores: list[Path], kept: list[tuple[Path, Path]]) -> None:
    """Remove what a load wrote and move the stores that were set aside back."""
    for store in stores:
        if store.exists():
            shutil.rmtree(store)
    for store, aside in kept:
        aside.rename(store)


def _load_keeping_previous(
    settings: ServerSettings, database: str, incoming: Path, previous: Path
) -> list[tuple[Path, Path]]:
    """Load the dump in `incoming` with the current store moved into `previous` (returns the
    moves, for `_put_back`); a failed load puts it back at once."""
    stores = _store_dirs(settings, database)
    kept: list[tuple[Path, Path]] = []
    for i, store in enumerate(stores):
        if store.exists():
            aside = previous / str(i)
            aside.parent.mkdir(parents=True, exist_ok=True)
            store.rename(aside)
            kept.append((store, aside))
    result = _admin(
        settings,
        "database",
        "load",
        database,
        f"--from-path={incoming}",
        "--overwrite-destination=true",
    )
    if result.returncode != 0:
        _put_back(stores, kept)
        raise BackupError(
            f"neo4j-admin database load failed (exit {result.returncode}): "
            f"{_last_lines(result)}; the previous graph was put back",
            hint="restore another copy",
        )
    return kept
