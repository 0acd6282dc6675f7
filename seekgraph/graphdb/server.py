"""The project's own Neo4j 5.26 Community server, assembled from Maven Central and run with `java`.

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
import hashlib
import os
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import neo4j
from neo4j.exceptions import AuthError, ServiceUnavailable

from seekgraph.graphdb.errors import AlreadyRunningError, InstallError, PortInUseError, ServerError
from seekgraph.graphdb.settings import ServerSettings

POM = Path(__file__).resolve().parent / "server" / "pom.xml"
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
# Settings written into neo4j.conf after the ones `write_config` derives from the server's
# settings (the test session adds cheaper query planning here, as it adds JVM flags above).
EXTRA_CONFIG: dict[str, str] = {}


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


def java_major_version(java: str = "java") -> int:
    """The major version of `java` on PATH; raises `InstallError` when it is missing."""
    if shutil.which(java) is None:
        raise InstallError(
            "java was not found on PATH: install OpenJDK 17 "
            "(Debian/Ubuntu: `apt-get install openjdk-17-jre-headless`)"
        )
    out = subprocess.run([java, "-version"], capture_output=True, text=True, check=False)
    match = re.search(r'version "(\d+)(?:\.(\d+))?', out.stderr + out.stdout)
    if not match:
        raise InstallError(f"could not read the Java version from: {out.stderr.strip()[:200]}")
    major = int(match.group(1))
    return int(match.group(2)) if major == 1 and match.group(2) else major


def _require_tools() -> None:
    major = java_major_version()
    if major not in (17, 21):
        raise InstallError(
            f"Neo4j 5.26 needs Java 17 or 21, found Java {major}: install OpenJDK 17"
        )
    if shutil.which("mvn") is None:
        raise InstallError(
            "mvn (Apache Maven) was not found on PATH: install it "
            "(Debian/Ubuntu: `apt-get install maven`)"
        )


def _pom_hash() -> str:
    return hashlib.sha256(POM.read_bytes()).hexdigest()


def is_installed(settings: ServerSettings) -> bool:
    stamp = settings.home / ".installed"
    return stamp.exists() and stamp.read_text().strip() == _pom_hash()


def install(settings: ServerSettings, *, force: bool = False) -> bool:
    """Assemble Neo4j + Browser + APOC into `settings.home`; returns False when already there."""
    if is_installed(settings) and not force:
        return False
    _require_tools()
    home = settings.home
    for sub in ("lib", "plugins"):
        target = home / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    for profile, sub in (("server", "lib"), ("plugins,!server", "plugins")):
        cmd = [
            "mvn",
            "-q",
            "-B",
            "-f",
            str(POM),
            "-P",
            profile,
            "dependency:copy-dependencies",
            "-DincludeScope=runtime",
            f"-DoutputDirectory={home / sub}",
        ]
        result = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            tail = "\n".join((result.stdout + result.stderr).strip().splitlines()[-15:])
            raise InstallError(f"Maven could not assemble Neo4j ({' '.join(cmd)}):\n{tail}")
    for sub in ("conf", "data", "logs", "run", "import"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    for old in home.glob(f"{_ARCHIVE_PREFIX}*"):  # classes of the jars just replaced
        old.unlink()
    (home / ".installed").write_text(_pom_hash() + "\n")
    return True


# Class data sharing: the JVM maps the classes a server loaded last time from one archive
# instead of reading and verifying them from ~300 jars again. The first server a clean stop
# ends writes it (beside the installed jars, one per Java version); later starts read it.
# Measured on 2 cores: start to Bolt 8.5 -> 5-7 s, CPU 11.5 -> 7-9 s.
_ARCHIVE_PREFIX = "neo4j-classes"


def class_archive(settings: ServerSettings) -> Path:
    """The class archive of the jars `settings` runs (a private server's `lib` links to the
    installed one, so every server of one install shares it)."""
    installed = (settings.home / "lib").resolve().parent
    return installed / f"{_ARCHIVE_PREFIX}-java{java_major_version()}.jsa"


def _archive_flags(settings: ServerSettings) -> list[str]:
    """Read the archive when there is one; else have this server write one when it exits,
    under a name of its own (noted in run/), which `stop` renames into place."""
    archive = class_archive(settings)
    note = settings.home / "run" / "class-archive"
    if archive.is_file():
        note.unlink(missing_ok=True)
        return [f"-XX:SharedArchiveFile={archive}"]
    written = archive.with_name(f"{archive.name}.{os.getpid()}.{time.time_ns()}.tmp")
    note.parent.mkdir(parents=True, exist_ok=True)
    note.write_text(f"{written}\n")
    return [f"-XX:ArchiveClassesAtExit={written}"]


def _keep_archive(settings: ServerSettings) -> None:
    """After a clean stop: put the archive the server wrote into place (a server killed
    before it finished writing never gets here, so a cut archive is never read)."""
    note = settings.home / "run" / "class-archive"
    if not note.is_file():
        return
    written = Path(note.read_text().strip())
    note.unlink()
    archive = class_archive(settings)  # asks `java -version`: once
    with contextlib.suppress(OSError):  # only a speed-up: a stop never fails on it
        if written.is_file() and archive.is_file():
            written.unlink()  # another server's came first
        elif written.is_file():
            written.replace(archive)


def _ensure_password(settings: ServerSettings) -> str:
    """Create the password file (0600) on first use and set it as the initial password."""
    path = settings.password_file
    if path.exists():
        return path.read_text().strip()
    if (settings.home / "data" / "databases" / "system").exists():
        raise ServerError(
            f"{path} is missing but the server already has data: restore the file or remove "
            f"{settings.home / 'data'} to start over"
        )
    # a letter first: the admin tool would read a token starting with "-" as an option
    password = "p" + secrets.token_urlsafe(18)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(password + "\n")
    os.chmod(path, 0o600)
    env = dict(os.environ, NEO4J_HOME=str(settings.home), NEO4J_CONF=str(settings.home / "conf"))
    result = subprocess.run(
        [
            "java",
            "-cp",
            f"{settings.home / 'lib'}/*",
            "org.neo4j.cli.AdminTool",
            "dbms",
            "set-initial-password",
            # the admin tool reads arguments from an @file: the password never appears on a
            # command line (where `ps` would show it)
            f"@{path}",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if result.returncode != 0:
        path.unlink()
        raise ServerError(f"could not set the initial password: {result.stderr.strip()[-500:]}")
    return password


def write_config(settings: ServerSettings) -> Path:
    """Write conf/neo4j.conf: loopback only, auth on, bounded heap/page cache/transaction memory."""
    home = settings.home
    host = settings.host
    lines = {
        "server.default_listen_address": host,
        "server.default_advertised_address": host,
        "server.bolt.listen_address": f"{host}:{settings.bolt_port}",
        "server.bolt.advertised_address": f"{host}:{settings.bolt_port}",
        "server.http.listen_address": f"{host}:{settings.http_port}",
        "server.http.advertised_address": f"{host}:{settings.http_port}",
        "server.https.enabled": "false",
        "dbms.security.auth_enabled": "true",
        "server.directories.data": str(home / "data"),
        "server.directories.logs": str(home / "logs"),
        "server.directories.plugins": str(home / "plugins"),
        "server.directories.import": str(home / "import"),
        "server.directories.run": str(home / "run"),
        "server.memory.heap.initial_size": settings.heap,
        "server.memory.heap.max_size": settings.heap,
        "server.memory.pagecache.size": settings.pagecache,
        "dbms.memory.transaction.total.max": settings.transaction_memory,
        "dbms.usage_report.enabled": "false",
        "dbms.security.procedures.unrestricted": "apoc.*",
        "dbms.security.procedures.allowlist": "apoc.*",
        "client.allow_telemetry": "false",  # Browser: no usage banner, no calls home (offline)
        # Bolt's network threads wait twice this long for work that never comes once the
        # databases have stopped (checkpointed): 10 s of every stop after a query, the
        # largest part of `db load`'s stop (bench_bulk)
        "internal.dbms.bolt.netty_server_shutdown_quiet_period": "0",
        # a query first planned on an empty graph (ingest's FACT merges: a seek on the FACT
        # table_id index, then a filter, per row) is planned again once the graph has grown
        "dbms.cypher.min_replan_interval": "1s",
    }
    lines.update(EXTRA_CONFIG)
    if settings.browser_post_connect:  # e.g. node colours for Browser (the CLI passes them)
        lines["browser.post_connect_cmd"] = settings.browser_post_connect
    conf = home / "conf" / "neo4j.conf"
    conf.parent.mkdir(parents=True, exist_ok=True)
    body = "# Written by seekgraph on every start; edit seekgraph.toml instead.\n"
    body += "".join(f"{key}={value}\n" for key, value in lines.items())
    conf.write_text(body)
    return conf


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
    password = _ensure_password(settings)
    home = settings.home
    classpath = f"{home / 'plugins'}/*:{home / 'lib'}/*"
    cmd = [
        "java",
        "-cp",
        classpath,
        *JVM_FLAGS,
        *_archive_flags(settings),
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
            _keep_archive(settings)
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
