"""What is written into a Neo4j home before the server starts: the jars, the class archive,
the password and neo4j.conf.

`install` assembles Neo4j, Browser and APOC with Maven (from seekgraph/graphdb/server/pom.xml);
`archive_flags`/`keep_archive` manage the class-data-sharing archive a clean stop leaves;
`ensure_password` generates the password of user `neo4j`; `write_config` writes neo4j.conf.
These are apart from `seekgraph.graphdb.server`, which runs the process (pid file, ports,
start, stop, status), because they only prepare files: `seekgraph db install`, the backup
commands and the test session use them without running a server. The layout of a home is in
that module's docstring; the facts behind both (JVM flags, settings) are in docs/neo4j.md.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import secrets
import shutil
import subprocess
import time
from pathlib import Path

from seekgraph.graphdb.errors import InstallError, ServerError
from seekgraph.graphdb.settings import ServerSettings

POM = Path(__file__).resolve().parent / "server" / "pom.xml"
# Settings written into neo4j.conf after the ones `write_config` derives from the server's
# settings (the test session adds cheaper query planning here, as it adds JVM flags to
# `seekgraph.graphdb.server.JVM_FLAGS`).
EXTRA_CONFIG: dict[str, str] = {}


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


def archive_flags(settings: ServerSettings) -> list[str]:
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


def keep_archive(settings: ServerSettings) -> None:
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


def ensure_password(settings: ServerSettings) -> str:
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
