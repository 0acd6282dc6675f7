"""The project's own Neo4j 5.26 Community server, run with `java`: start, stop, status, ports.

What is written into its home before a start (the jars from Maven Central, the class archive,
the password, neo4j.conf) is `seekgraph.graphdb.server_files`.

Layout of a Neo4j home (``ServerSettings.home``)::

    lib/        Neo4j, Bolt, the import tool and Neo4j Browser (jars from seekgraph/graphdb/server/pom.xml)
    plugins/    APOC core + common (procedures load only from here)
    conf/       neo4j.conf, written on every start from the settings
    data/ logs/ run/ import/
    password    the generated password of user `neo4j` (mode 0600)
    neo4j.pid   the pid of the running server
    .installed  hash of the pom the jars came from (re-install is a no-op while it matches)

The facts behind this file (entry point, JVM flags, settings) are in docs/neo4j.md.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import neo4j
from neo4j.exceptions import AuthError, ServiceUnavailable

from seekgraph.graphdb.errors import AlreadyRunningError, PortInUseError, ServerError
from seekgraph.graphdb.server_files import (
    archive_flags,
    ensure_password,
    install,
    is_installed,
    java_major_version,
    keep_archive,
    write_config,
)
from seekgraph.graphdb.settings import ServerSettings

ENTRY_POINT = "org.neo4j.server.CommunityEntryPoint"

JVM_FLAGS = [
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
    "-XX:+DisableExplicitGC",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
    "-Dlog4j2.disable.jmx=true",
    "-Dfile.encoding=UTF-8",
]


@dataclass(frozen=True)
class ServerStatus:
    """What `seekgraph db status` prints."""

    pid: int | None
    process_alive: bool
    answers: bool
    bolt_uri: str
    http_url: str
    browser_url: str
    detail: str = ""


def _pid_file(settings: ServerSettings) -> Path:
    return settings.home / "neo4j.pid"


def _read_pid(settings: ServerSettings) -> int | None:
    path = _pid_file(settings)
    try:
        return int(path.read_text().strip())
    except (FileNotFoundError, ValueError):
        return None


def _alive(pid: int | None) -> bool:
    if pid is None:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie (killed child not yet reaped) counts as dead.
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


def _ours(pid: int | None, settings: ServerSettings) -> bool:
    """`pid` is alive and is this home's Neo4j (its command line names our entry point and home):
    a pid file may outlive its server, and the pid may since belong to another process."""
    if not _alive(pid):
        return False
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            args = handle.read().decode(errors="replace").split("\0")
    except OSError:
        return False
    return ENTRY_POINT in args and f"--home-dir={settings.home}" in args


def _port_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def private_server(installed: ServerSettings, home: Path, **settings: str) -> ServerSettings:
    """Settings for another server that shares `installed`'s jars but has its own data and ports.

    Tests and benchmarks use it to run a throw-away server beside the user's own. `settings`
    may set `heap`, `pagecache`, `transaction_memory` and `browser_post_connect`.
    """
    install(installed)
    home.mkdir(parents=True, exist_ok=True)
    for sub in ("lib", "plugins"):
        (home / sub).symlink_to(installed.home / sub, target_is_directory=True)
    (home / ".installed").write_text((installed.home / ".installed").read_text())
    return ServerSettings(home=home, bolt_port=free_port(), http_port=free_port(), **settings)


def _wait_port_free(host: str, port: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not _port_free(host, port):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.25)
    return True


def free_port(host: str = "127.0.0.1") -> int:
    """A port nobody listens on now (used by tests to run a private server).

    Drawn below the kernel's ephemeral range: a port from inside it (what binding port 0
    gives) can be taken by any process's outgoing connection before the server binds it, which
    happened when tests ran beside each other. Random, so parallel test workers rarely draw the
    same one."""
    low = 32768
    with contextlib.suppress(OSError, ValueError, IndexError):
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    draw = random.Random()
    for _ in range(200):
        port = draw.randrange(10_000, max(low, 10_001))
        if _port_free(host, port):
            return port
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def _answers(settings: ServerSettings, password: str) -> tuple[bool, str]:
    try:
        with neo4j.GraphDatabase.driver(settings.bolt_uri, auth=("neo4j", password)) as driver:
            driver.verify_connectivity()
        return True, ""
    except AuthError:
        return False, "the server answers but refuses the stored password"
    except (ServiceUnavailable, OSError, ValueError) as e:
        return False, str(e)


def log_file(settings: ServerSettings) -> Path:
    return settings.home / "logs" / "console.log"


def tail_log(settings: ServerSettings, lines: int = 30) -> str:
    path = log_file(settings)
    if not path.exists():
        return f"(no log at {path})"
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


def status(settings: ServerSettings) -> ServerStatus:
    """Whether the managed server's process lives and answers with the stored password."""
    pid = _read_pid(settings)
    alive = _ours(pid, settings)
    answers, detail = False, "not running"
    if alive:
        password = (
            settings.password_file.read_text().strip() if settings.password_file.exists() else ""
        )
        answers, detail = _answers(settings, password)
    return ServerStatus(
        pid=pid if alive else None,
        process_alive=alive,
        answers=answers,
        bolt_uri=settings.bolt_uri,
        http_url=settings.http_url,
        browser_url=settings.browser_url,
        detail=detail,
    )


def start(settings: ServerSettings, *, timeout: float = 180.0) -> ServerStatus:
    """Start the server in the background and wait until Bolt answers with the stored password."""
    if not is_installed(settings):
        raise ServerError(f"Neo4j is not installed in {settings.home}: run `seekgraph db install`")
    java_major_version()  # a missing java is one line with what to install
    pid = _read_pid(settings)
    if _ours(pid, settings):
        raise AlreadyRunningError(
            f"the server is already running (pid {pid}) at {settings.bolt_uri}"
        )
    # A server that just died (kill -9) releases its sockets only when its last thread is gone:
    # with a stale pid file, give the ports a few seconds before calling them taken.
    grace = 15.0 if pid is not None else 0.0
    for port in (settings.bolt_port, settings.http_port):
        if not _wait_port_free(settings.host, port, grace):
            raise PortInUseError(
                f"port {port} on {settings.host} is in use by another process: stop it or choose "
                "other ports ([server] bolt_port/http_port, SEEKGRAPH_BOLT_PORT/SEEKGRAPH_HTTP_PORT)"
            )
    write_config(settings)
    password = ensure_password(settings)
    home = settings.home
    classpath = f"{home / 'plugins'}/*:{home / 'lib'}/*"
    cmd = [
        "java",
        "-cp",
        classpath,
        *JVM_FLAGS,
        *archive_flags(settings),
        f"-Xms{settings.heap}",
        f"-Xmx{settings.heap}",
        ENTRY_POINT,
        f"--home-dir={home}",
        f"--config-dir={home / 'conf'}",
        "--console-mode",
    ]
    log = log_file(settings)
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "ab") as out:
        process = subprocess.Popen(
            cmd,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            env=dict(os.environ, NEO4J_HOME=str(home)),
        )
    _pid_file(settings).write_text(f"{process.pid}\n")
    deadline = time.monotonic() + timeout
    detail = ""
    while time.monotonic() < deadline:
        if process.poll() is not None:
            _pid_file(settings).unlink(missing_ok=True)
            raise ServerError(
                f"Neo4j exited with code {process.returncode} during start-up; last log lines:\n"
                + tail_log(settings)
            )
        ok, detail = _answers(settings, password)
        if ok:
            return status(settings)
        time.sleep(0.5)
    stop(settings)
    raise ServerError(
        f"Neo4j did not answer within {timeout:.0f}s ({detail}); last log lines:\n"
        + tail_log(settings)
    )


def stop(settings: ServerSettings, *, timeout: float = 60.0) -> bool:
    """Stop gracefully (SIGTERM), escalating to SIGKILL after `timeout`; False if not running.

    Only a process that is this home's Neo4j is signalled: a stale pid file whose pid now
    belongs to another process is removed and nothing is killed."""
    pid = _read_pid(settings)
    if not _ours(pid, settings):
        _pid_file(settings).unlink(missing_ok=True)
        return False
    assert pid is not None
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        _reap(pid)
        if not _alive(pid):
            keep_archive(settings)
            break
        time.sleep(0.2)
    else:
        os.kill(pid, signal.SIGKILL)
        while _alive(pid):
            _reap(pid)
            time.sleep(0.1)
    _pid_file(settings).unlink(missing_ok=True)
    return True


def _reap(pid: int) -> None:
    """Collect the exit status when the server is our own child (tests start it that way)."""
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)
