"""The managed server's life: start, already running, kill -9 and recovery, auth, loopback only."""

from __future__ import annotations

import os
import signal
import stat
import time
from pathlib import Path

import neo4j
import psutil
import pytest
from click.testing import CliRunner

from seekgraph.cli import main
from seekgraph.graphdb import server, server_files
from seekgraph.graphdb.driver import open_driver
from seekgraph.graphdb.errors import AlreadyRunningError, ConnectionFailedError, PortInUseError
from seekgraph.graphdb.settings import ConnectionSettings, ServerSettings
from tests.conftest import PRODUCT_GC, SERIAL_GC, _installed_home

pytestmark = pytest.mark.neo4j  # starts servers of its own


@pytest.fixture
def own_server(tmp_path: Path) -> ServerSettings:
    """A second managed server in tmp_path (sharing the installed jars), stopped afterwards."""
    settings = server.private_server(
        _installed_home(),
        tmp_path / "neo4j",
        heap="384m",
        pagecache="64m",
        transaction_memory="128m",
    )
    yield settings
    server.stop(settings, timeout=20.0)


def _cli(settings: ServerSettings, *args: str) -> tuple[int, str]:
    env = {
        "SEEKGRAPH_BOLT_PORT": str(settings.bolt_port),
        "SEEKGRAPH_HTTP_PORT": str(settings.http_port),
        "NEO4J_URI": "",
    }
    result = CliRunner().invoke(main, ["--neo4j-home", str(settings.home), *args], env=env)
    return result.exit_code, result.output


def _connection(settings: ServerSettings, password: str | None = None) -> ConnectionSettings:
    pw = password if password is not None else settings.password_file.read_text().strip()
    return ConnectionSettings(settings.bolt_uri, "neo4j", pw, None, managed=True)


def test_lifecycle_start_twice_kill9_recover_and_auth(own_server: ServerSettings) -> None:
    code, out = _cli(own_server, "db", "start")
    assert code == 0, out
    assert "started" in out
    code, out = _cli(own_server, "db", "start")
    assert code == 0 and "already running" in out
    with pytest.raises(AlreadyRunningError):
        server.start(own_server)

    # the password file is private to the user
    mode = stat.S_IMODE(os.stat(own_server.password_file).st_mode)
    assert mode == 0o600

    # write data, then kill -9 the Java process
    with open_driver(_connection(own_server)) as drv:
        drv.execute_query("CREATE (:Survivor {name: $name})", name="kept across kill -9")
    pid = server.status(own_server).pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 20
    while server.status(own_server).process_alive and time.monotonic() < deadline:
        time.sleep(0.2)
    code, out = _cli(own_server, "db", "status")
    assert code == 1 and "server:   down" in out

    code, out = _cli(own_server, "db", "start")
    assert code == 0 and "started" in out, out
    with open_driver(_connection(own_server)) as drv:
        records, _, _ = drv.execute_query("MATCH (n:Survivor) RETURN n.name AS name")
        assert [r["name"] for r in records] == ["kept across kill -9"]

    # a wrong password is a clear error, not a traceback
    with pytest.raises(ConnectionFailedError, match="wrong password"):
        open_driver(_connection(own_server, password="not-the-password"))
    env_wrong = {"NEO4J_URI": own_server.bolt_uri, "NEO4J_PASSWORD": "not-the-password"}
    result = CliRunner().invoke(main, ["db", "init"], env=env_wrong)
    assert result.exit_code == 1
    assert "wrong password" in result.output and "Traceback" not in result.output

    # Bolt without credentials is refused
    with (
        neo4j.GraphDatabase.driver(own_server.bolt_uri, auth=None) as anonymous,
        pytest.raises(neo4j.exceptions.AuthError),
    ):
        anonymous.verify_connectivity()

    # listening on loopback only
    proc = psutil.Process(server.status(own_server).pid)
    ports = {
        c.laddr.port: c.laddr.ip
        for c in proc.net_connections(kind="tcp")
        if c.status == psutil.CONN_LISTEN
    }
    for port in (own_server.bolt_port, own_server.http_port):
        assert port in ports
        assert ports[port] in {"127.0.0.1", "::ffff:127.0.0.1"}, ports

    code, out = _cli(own_server, "db", "stop")
    assert code == 0 and "stopped" in out
    code, out = _cli(own_server, "db", "stop")
    assert "not running" in out

    # after a clean stop the install has its class archive (this server's, or an earlier
    # one's), this server's note of what it wrote is gone, and the next start reads it
    archive = server_files.class_archive(own_server)
    assert archive.is_file() and not (own_server.home / "run" / "class-archive").exists()
    server.start(own_server)
    try:
        pid = server.status(own_server).pid
        assert f"-XX:SharedArchiveFile={archive}" in psutil.Process(pid).cmdline()
    finally:
        server.stop(own_server)


def test_port_in_use_is_detected(own_server: ServerSettings, tmp_path: Path) -> None:
    import socket

    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", own_server.bolt_port))
        blocker.listen()
        with pytest.raises(PortInUseError, match=str(own_server.bolt_port)):
            server.start(own_server)


def test_install_is_a_noop_when_done(tmp_path: Path) -> None:
    installed = _installed_home()
    started = time.perf_counter()
    assert server_files.install(installed) is False
    assert time.perf_counter() - started < 1.0


def test_status_of_a_server_never_started(tmp_path: Path) -> None:
    settings = ServerSettings(
        home=tmp_path / "nothing", bolt_port=server.free_port(), http_port=server.free_port()
    )
    st = server.status(settings)
    assert not st.process_alive and not st.answers
    with pytest.raises(Exception, match="not installed"):
        server.start(settings)


def test_a_stale_pid_never_kills_another_process_and_the_password_stays_off_command_lines(
    own_server: ServerSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`db stop` signals only this home's Neo4j: a pid file left by a dead server whose pid now
    belongs to another process is removed and that process lives on. The initial password
    reaches the admin tool through an @file, never as an argument (`ps` would show it)."""
    import subprocess

    other = subprocess.Popen(["sleep", "60"])
    try:
        own_server.home.mkdir(parents=True, exist_ok=True)
        (own_server.home / "neo4j.pid").write_text(f"{other.pid}\n")
        assert not server.status(own_server).process_alive
        assert server.stop(own_server) is False
        assert other.poll() is None  # still running
        assert not (own_server.home / "neo4j.pid").exists()

        (own_server.home / "neo4j.pid").write_text(f"{other.pid}\n")
        commands: list[list[str]] = []
        real_run = subprocess.run

        def recording_run(args: list[str], **kwargs: object) -> object:
            commands.append([str(a) for a in args])
            return real_run(args, **kwargs)  # type: ignore[call-overload]

        monkeypatch.setattr(server.subprocess, "run", recording_run)
        server.start(own_server)  # the stale pid does not count as "already running"
        password = own_server.password_file.read_text().strip()
        assert any("set-initial-password" in c for c in commands)
        assert all(password not in arg for c in commands for arg in c)
        with open_driver(_connection(own_server)) as drv:
            drv.verify_connectivity()
        assert other.poll() is None
    finally:
        other.kill()
        other.wait()


def test_db_start_without_java_is_one_line(own_server: ServerSettings, tmp_path: Path) -> None:
    """No `java` on PATH: `db start` says what to install in one line and exits non-zero."""
    empty_bin = tmp_path / "bin"
    empty_bin.mkdir()
    env = {
        "SEEKGRAPH_BOLT_PORT": str(own_server.bolt_port),
        "SEEKGRAPH_HTTP_PORT": str(own_server.http_port),
        "NEO4J_URI": "",
        "PATH": str(empty_bin),
    }
    result = CliRunner().invoke(
        main, ["--neo4j-home", str(own_server.home), "db", "start"], env=env
    )
    assert result.exit_code != 0
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "java was not found on PATH" in lines[0], result.output
    assert "Traceback" not in result.output


def test_refused_logins_and_a_heap_neo4j_cannot_start_with_are_one_line(
    own_server: ServerSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After several wrong passwords Neo4j refuses even the right one for a while
    (`AuthenticationRateLimit`); a heap too small for the JVM stops the start. Each is one
    line that says what to do, exit status 1, no traceback."""
    code, out = _cli(own_server, "db", "start")
    assert code == 0, out
    wrong = {"NEO4J_URI": own_server.bolt_uri, "NEO4J_PASSWORD": "not-the-password"}
    right = {**wrong, "NEO4J_PASSWORD": own_server.password_file.read_text().strip()}
    outputs = []
    for env in [wrong] * 4 + [right]:
        result = CliRunner().invoke(main, ["db", "status"], env=env)
        outputs.append((result.exit_code, result.output))
    limited = [out for code, out in outputs if "refuses logins for a while" in out]
    assert limited, outputs
    for code, out in outputs[:4]:
        assert code == 1 and "Traceback" not in out
        assert len([line for line in out.splitlines() if line.startswith("Error:")]) == 1
    _cli(own_server, "db", "stop")
    small = tmp_path / "small.toml"
    small.write_text('[server]\nheap = "2m"\n')
    # with the collector users run: the serial one the test servers use (conftest) accepts a
    # 2m heap and fails later, inside class loading, with a stack trace for its last lines
    product = [PRODUCT_GC if f == SERIAL_GC else f for f in server.JVM_FLAGS]
    monkeypatch.setattr(server, "JVM_FLAGS", product)
    code, out = _cli(own_server, "--config", str(small), "db", "start")
    assert code == 1 and "Traceback" not in out
    errors = [line for line in out.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and "during start-up" in errors[0] and "VM" in errors[0], out
