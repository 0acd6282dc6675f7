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

from graphdb import server
from graphdb.driver import open_driver
from graphdb.errors import AlreadyRunningError, ConnectionFailedError, PortInUseError
from graphdb.settings import ConnectionSettings, ServerSettings
from seekgraph.cli import main
from tests.conftest import _installed_home

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
    assert server.install(installed) is False
    assert time.perf_counter() - started < 1.0


def test_status_of_a_server_never_started(tmp_path: Path) -> None:
    settings = ServerSettings(
        home=tmp_path / "nothing", bolt_port=server.free_port(), http_port=server.free_port()
    )
    st = server.status(settings)
    assert not st.process_alive and not st.answers
    with pytest.raises(Exception, match="not installed"):
        server.start(settings)
