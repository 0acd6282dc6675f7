"""Backups: `seekgraph db dump` then `db restore` of a changed graph gives the original graph
back; a file that is not a restorable dump is refused with one line and the graph untouched;
an external server is pointed to neo4j-admin on its host."""

from __future__ import annotations

import io
import json
import shutil
import tarfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from seekgraph.cli import main
from seekgraph.graphdb import server
from seekgraph.graphdb.backup import MANIFEST, neo4j_version
from seekgraph.graphdb.schema import SCHEMA_VERSION, apply_schema, describe_schema
from seekgraph.graphdb.settings import ServerSettings
from seekgraph.synth.stages import INGEST
from tests.conftest import DEFAULT_DATA, run_stage, wipe
from tests.scaffolding.fingerprint import Fingerprint, difference, fingerprint
from tests.scaffolding.servers import connect
from tests.scaffolding.servers import own_server as _own_server

pytestmark = pytest.mark.neo4j  # a server of its own: dump and restore stop it


@pytest.fixture(scope="module")
def own_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerSettings]:
    with _own_server(tmp_path_factory.mktemp("backup-neo4j")) as settings:
        yield settings


def _cli(settings: ServerSettings, *args: str) -> tuple[int, str]:
    env = {
        "SEEKGRAPH_BOLT_PORT": str(settings.bolt_port),
        "SEEKGRAPH_HTTP_PORT": str(settings.http_port),
    }
    result = CliRunner().invoke(main, ["--neo4j-home", str(settings.home), *args], env=env)
    return result.exit_code, result.output


def _state(settings: ServerSettings) -> tuple[Fingerprint, dict[str, Any]]:
    """The graph's fingerprint and its constraints and indexes."""
    with connect(settings) as driver:
        return fingerprint(driver), describe_schema(driver)


@dataclass(frozen=True)
class Backup:
    """The module's dump: its file, what `db dump` printed, and how long it took."""

    file: Path
    output: str
    seconds: float


@pytest.fixture(scope="module")
def dumped(own_server: ServerSettings, tmp_path_factory: pytest.TempPathFactory) -> Backup:
    """A graph of two tables (the CSV and the HTML table of the default data) and its backup."""
    data = tmp_path_factory.mktemp("two-tables")
    shutil.copytree(DEFAULT_DATA / "extra", data / "extra")
    with connect(own_server) as driver:
        apply_schema(driver)
        report = run_stage(INGEST, driver, data=data)
        assert report.kept == 2, report.summary_lines()
    file = tmp_path_factory.mktemp("backups") / "graph.tar"
    started = time.monotonic()
    code, out = _cli(own_server, "db", "dump", str(file))
    assert code == 0, out
    return Backup(file, out, time.monotonic() - started)


@pytest.fixture(scope="module")
def backup(dumped: Backup) -> Path:
    return dumped.file


def test_dump_then_restore_gives_back_the_graph(
    own_server: ServerSettings, dumped: Backup, tmp_path: Path
) -> None:
    with tarfile.open(dumped.file) as tar:
        assert tar.getnames() == [MANIFEST, "neo4j.dump"]
        manifest = json.loads(tar.extractfile(MANIFEST).read())  # type: ignore[union-attr]
    assert manifest["neo4j_version"] == neo4j_version() == "5.26.19"
    assert manifest["schema_version"] == SCHEMA_VERSION
    assert manifest["nodes"] > 100 and manifest["relationships"] > 100
    out = dumped.output
    assert f"dumped {manifest['nodes']} nodes" in out and "Neo4j started again" in out
    original, schema = _state(own_server)
    assert server.status(own_server).answers  # started again after the dump
    code, out = _cli(own_server, "db", "dump", str(dumped.file))
    assert code != 0 and out.count("\n") == 1 and "already exists" in out

    # change the graph, restore (timed)
    with connect(own_server) as driver:
        wipe(driver)
        driver.execute_query("CREATE (:Table {table_id: 'changed'})")
        driver.execute_query("DROP INDEX task_question")
        assert difference(original, fingerprint(driver)) != ""
    started = time.monotonic()
    code, out = _cli(own_server, "db", "restore", "--yes", str(dumped.file))
    restored = time.monotonic() - started
    assert code == 0, out
    assert f"restored {manifest['nodes']} nodes" in out
    after, after_schema = _state(own_server)
    assert difference(original, after) == ""
    assert after_schema == schema  # constraints and indexes came back too
    print(
        f"\nround trip: dump {dumped.seconds:.1f}s, restore {restored:.1f}s "
        f"({manifest['nodes']} nodes)"
    )


def _rewritten(backup: Path, target: Path, **changes: Any) -> Path:
    """A copy of `backup` with manifest fields changed (`dump_bytes_of`: the dump's bytes
    replaced by a function of them)."""
    with tarfile.open(backup) as tar:
        manifest = json.loads(tar.extractfile(MANIFEST).read())  # type: ignore[union-attr]
        dump = tar.extractfile("neo4j.dump").read()  # type: ignore[union-attr]
    change = changes.pop("dump_bytes_of", None)
    if change is not None:
        dump = change(dump)
    manifest.update(changes)
    with tarfile.open(target, "w") as tar:
        for name, body in ((MANIFEST, json.dumps(manifest).encode()), ("neo4j.dump", dump)):
            info = tarfile.TarInfo(name)
            info.size = len(body)
            tar.addfile(info, io.BytesIO(body))
    return target


def _flip(data: bytes, at: int) -> bytes:
    return data[:at] + bytes(b ^ 0xFF for b in data[at : at + 64]) + data[at + 64 :]


def test_bad_files_are_refused_with_one_line_and_the_graph_untouched(
    own_server: ServerSettings, backup: Path, tmp_path: Path
) -> None:
    import hashlib

    before, schema = _state(own_server)
    noise = tmp_path / "noise.tar"
    noise.write_bytes(bytes(range(256)) * 40)
    truncated = tmp_path / "truncated.tar"
    truncated.write_bytes(backup.read_bytes()[: backup.stat().st_size // 2])
    flipped = _rewritten(backup, tmp_path / "flipped.tar", dump_bytes_of=lambda b: _flip(b, 2000))

    def unreadable(data: bytes) -> bytes:
        return _flip(data, 0)

    with tarfile.open(backup) as tar:
        header_flipped = unreadable(tar.extractfile("neo4j.dump").read())  # type: ignore[union-attr]
    garbled = _rewritten(
        backup,
        tmp_path / "garbled.tar",
        dump_bytes_of=unreadable,
        dump_sha256=hashlib.sha256(header_flipped).hexdigest(),
    )
    cases = {
        noise: "is not a seekgraph dump (not a tar archive",
        truncated: "is not a seekgraph dump",
        tmp_path / "missing.tar": "does not exist",
        _rewritten(backup, tmp_path / "v5.1.tar", neo4j_version="5.1.0"): (
            "was dumped from Neo4j 5.1.0, this server is Neo4j 5.26.19; the current graph is "
            "left as it is"
        ),
        _rewritten(backup, tmp_path / "newer.tar", schema_version=SCHEMA_VERSION + 1): (
            f"holds a graph of schema version {SCHEMA_VERSION + 1}, newer than"
        ),
        flipped: "is damaged: its dump's SHA-256 differs from the manifest's",
        garbled: "neo4j-admin cannot read its dump",
    }
    pid = server.status(own_server).pid
    for file, message in cases.items():
        code, out = _cli(own_server, "db", "restore", "--yes", str(file))
        lines = out.strip().splitlines()
        assert code != 0 and len(lines) == 1, (file.name, out)
        assert lines[0].startswith("Error: ") and message in lines[0], (file.name, out)
    assert server.status(own_server).pid == pid  # never stopped
    after, after_schema = _state(own_server)
    assert difference(before, after) == "" and after_schema == schema


def test_an_external_server_is_pointed_to_neo4j_admin_on_its_host(tmp_path: Path) -> None:
    for command in ("dump", "restore"):
        args = ["--uri", "bolt://graphs.example:7687", "--password", "x", "db", command]
        args += ["--yes"] if command == "restore" else []
        result = CliRunner().invoke(main, [*args, str(tmp_path / "f.tar")])
        lines = result.output.strip().splitlines()
        assert result.exit_code != 0 and len(lines) == 1, result.output
        assert lines[0].startswith(
            f"Error: cannot {command}: seekgraph is configured to use the existing Neo4j at "
            "bolt://graphs.example:7687"
        )
        verb = {"dump": "dump", "restore": "load"}[command]
        assert f"neo4j-admin database {verb} neo4j" in lines[0]
        assert not (tmp_path / "f.tar").exists()


def test_a_load_that_fails_midway_puts_the_previous_graph_back(
    own_server: ServerSettings, backup: Path, tmp_path: Path
) -> None:
    """A dump whose header reads but whose body is damaged (the manifest's checksum made to
    match): the admin tool fails during the load itself, after the server was stopped."""
    import hashlib

    with tarfile.open(backup) as tar:
        dump = tar.extractfile("neo4j.dump").read()  # type: ignore[union-attr]
    damaged = _flip(dump, len(dump) // 2)
    file = _rewritten(
        backup,
        tmp_path / "damaged.tar",
        dump_bytes_of=lambda _: damaged,
        dump_sha256=hashlib.sha256(damaged).hexdigest(),
    )
    before, schema = _state(own_server)
    code, out = _cli(own_server, "db", "restore", "--yes", str(file))
    lines = out.strip().splitlines()
    assert code != 0, out
    assert lines[-1].startswith("Error: neo4j-admin database load failed"), out
    assert lines[-1].endswith("the previous graph was put back (restore another copy)")
    assert server.status(own_server).answers  # started again
    after, after_schema = _state(own_server)
    assert difference(before, after) == "" and after_schema == schema
