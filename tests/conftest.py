"""Shared fixtures: one real Neo4j server per test session, on free ports, in a private data dir.

The server's jars come from the installed Neo4j home (``seekgraph db install``; the test command
runs it first); the session server links to them and keeps its own data, logs and password in a
temporary folder, and is stopped at the end of the session, also when tests fail. The tests talk
ONLY to that server: ``NEO4J_URI``, ``NEO4J_PASSWORD``, ``SEEKGRAPH_CONFIG`` and a
``./seekgraph.toml`` are ignored, so a user's own database is never touched (tested in
``test_settings.py``).
"""

from __future__ import annotations

import atexit
import fcntl
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import neo4j
import pytest

from seekgraph.common.config import ConfigFile, resolve_settings
from seekgraph.graphdb import server, server_files
from seekgraph.graphdb.driver import open_driver
from seekgraph.graphdb.schema import apply_schema
from seekgraph.graphdb.settings import ConnectionSettings, ServerSettings

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"


IGNORED_ENV: tuple[str, ...] = ("NEO4J_URI", "NEO4J_USERNAME", "NEO4J_PASSWORD", "NEO4J_DATABASE")
IGNORED_ENV += ("SEEKGRAPH_CONFIG",)


def _installed_home() -> ServerSettings:
    """The installed Neo4j (jars only; its data is never opened by the tests)."""
    env = {k: v for k, v in os.environ.items() if k not in IGNORED_ENV}
    settings = resolve_settings(ConfigFile(), env=env).server
    if not server_files.is_installed(settings):
        server_files.install(settings)
    return settings


def pytest_configure(config: pytest.Config) -> None:
    """Before anything is collected: forget the user's connection settings and config file,
    so no test can reach the user's own database."""
    for key in IGNORED_ENV:
        os.environ.pop(key, None)
    os.environ["SEEKGRAPH_CONFIG"] = os.devnull  # an empty config file, never ./seekgraph.toml
    # The servers the tests start live minutes and spend most of their CPU warming up (class
    # loading, JIT, planning each query once): the JIT's quick first tier alone saves about a
    # quarter of it (start 21 -> 15 CPU seconds, a cold default build 96 -> 89, a warm one
    # 16 -> 10, on 2 cores). What the server does is the same; only how fast its Java runs.
    if QUICK_JIT not in server.JVM_FLAGS:
        server.JVM_FLAGS.append(QUICK_JIT)
    # Their heaps are small (512m-1g) and the cores few: the serial collector does the same
    # collections without G1's concurrent threads and barriers. The fault test's small build
    # on a test server, quiet machine (`python -m bench.bench_test_server`, 2 runs each):
    # server CPU 43.6-47.2 -> 37.7-38.1 s, build 46.3 -> 42.0 s.
    server.JVM_FLAGS[:] = [SERIAL_GC if f == PRODUCT_GC else f for f in server.JVM_FLAGS]
    # Tests run many queries once each on small graphs, so planning them is most of their
    # cost: the planner's search for the best join order stops sooner (KP tasks join up to a
    # dozen patterns; expanding the default pages' seeds took 34 s, 13 s so). The answers are
    # the same: only the plan that finds them may differ.
    server_files.EXTRA_CONFIG.update(QUICK_PLANNING)
    _threads_per_worker()


QUICK_JIT = "-XX:TieredStopAtLevel=1"
SERIAL_GC = "-XX:+UseSerialGC"
PRODUCT_GC = "-XX:+UseG1GC"  # what `seekgraph db start` runs (`server.JVM_FLAGS`)
QUICK_PLANNING = {
    "internal.cypher.idp_solver_duration_threshold": "50",  # ms (Neo4j's default 1000)
    "internal.cypher.idp_solver_table_threshold": "16",  # plans kept per step (default 128)
}


def _threads_per_worker() -> None:
    """Parallel workers share the cores: each runs torch (and the processes it starts) on its
    share of them. Torch's OpenMP threads spin while they wait, so two workers with a thread
    per core each fight over the cores: the three training files on two workers took 222 s
    (340 s of CPU) so, 141 s (193 s of CPU) with one thread each, on 2 cores."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers < 2 or "OMP_NUM_THREADS" in os.environ:
        return  # one process, or the user chose
    threads = str(max(1, (os.cpu_count() or 1) // workers))
    os.environ["OMP_NUM_THREADS"] = os.environ["MKL_NUM_THREADS"] = threads
    if "torch" in sys.modules:  # imported before this hook: its pool is already sized
        sys.modules["torch"].set_num_threads(int(threads))


@pytest.fixture(scope="session", autouse=True)
def _own_working_directory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Each test process works in a folder of its own, so what a stage writes to its default
    ``out/`` never lands in the checkout, and parallel workers never share it."""
    before = Path.cwd()
    os.chdir(tmp_path_factory.mktemp("cwd"))
    yield
    os.chdir(before)


# Modules that take minutes go first, longest first (by their last CI times), so parallel
# workers (`-n 2 --dist loadfile`, each module on one worker, the next module to the first free
# worker) end on short modules instead of one worker running a long one alone.
HEAVY_MODULES = (
    "test_determinism.py",
    "test_workers_endpoints.py",
    "test_training_sft.py",
    "test_bulk_load.py",
    "test_training_grpo.py",
    "test_clipper_rewrite.py",
    "test_training_experiments.py",
    "test_backup.py",
    "test_llm_transformers.py",
    "test_isolation.py",
    "test_server_lifecycle.py",
    "test_agent_teacher.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test that needs the session's Neo4j `neo4j`, and every test that converts
    the packaged SmolLM2 `slow`, so `-m "not neo4j and not slow"` runs the pure tests alone."""
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        if "neo4j_server" in fixtures:
            item.add_marker(pytest.mark.neo4j)
        if "smollm2_checkpoint" in fixtures:  # converts the packaged model: a model load
            item.add_marker(pytest.mark.slow)
    heavy = {name: i for i, name in enumerate(HEAVY_MODULES)}
    items.sort(key=lambda item: heavy.get(item.path.name, len(heavy)))  # stable otherwise


# Modules that only a model load imports (the packaged SmolLM2 is a Llama, MiniLM a BERT).
MODEL_MODULES = (
    "sentence_transformers",
    "transformers.models.llama.modeling_llama",
    "transformers.models.bert.modeling_bert",
)


@pytest.fixture(autouse=True)
def _model_loads_are_marked_slow(request: pytest.FixtureRequest) -> Iterator[None]:
    """A pure test (no server) that loads a model and is not marked `slow` fails, so the pure
    subset (`-m "not neo4j and not slow"`) stays fast. Modules stay imported once loaded, so
    this catches the first such test of a process: in the pure subset, every one of them.
    (Server tests are left out: many run the `relations` stage, whose MiniLM another test of
    the same worker may have loaded first, so the check would depend on the order.)"""
    node = request.node
    if node.get_closest_marker("slow") is not None or node.get_closest_marker("neo4j"):
        yield
        return
    before = {name for name in MODEL_MODULES if name in sys.modules}
    yield
    loaded = [name for name in MODEL_MODULES if name in sys.modules and name not in before]
    if loaded:
        pytest.fail(f"this test loads a model ({loaded[0]}): mark it @pytest.mark.slow")


@pytest.fixture(scope="session")
def neo4j_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerSettings]:
    """The session's private server (started here, stopped at the end)."""
    from seekgraph.viz.style import browser_post_connect_cmd

    settings = server.private_server(
        _installed_home(),
        tmp_path_factory.mktemp("neo4j-home"),
        heap="512m",
        pagecache="256m",
        transaction_memory="256m",
        browser_post_connect=browser_post_connect_cmd(),  # as the CLI starts it
    )
    server.start(settings)
    atexit.register(server.stop, settings, timeout=20.0)
    try:
        yield settings
    finally:
        server.stop(settings, timeout=30.0)


def cli_login(connection: ConnectionSettings) -> list[str]:
    """The CLI flags that point `seekgraph` at the test server."""
    return [
        "--uri",
        connection.uri,
        "--username",
        connection.username,
        "--password",
        connection.password,
    ]


@pytest.fixture(scope="session")
def neo4j_connection(neo4j_server: ServerSettings) -> ConnectionSettings:
    """Connection settings of the session's private server."""
    return ConnectionSettings(
        neo4j_server.bolt_uri,
        "neo4j",
        neo4j_server.password_file.read_text().strip(),
        None,
        managed=True,
    )


@pytest.fixture(scope="session")
def driver(neo4j_connection: ConnectionSettings) -> Iterator[neo4j.Driver]:
    """A driver to the session server, with the schema applied."""
    drv = open_driver(neo4j_connection)
    apply_schema(drv, neo4j_connection.database)
    yield drv
    drv.close()


@pytest.fixture
def database(neo4j_connection: ConnectionSettings) -> str | None:
    return neo4j_connection.database


def wipe(drv: neo4j.Driver, database: str | None = None) -> None:
    """Delete every node and relationship (indexes and constraints stay)."""
    with drv.session(database=database) as session:
        # Relationships first, in small batches: a full pipeline graph's dense nodes would not fit
        # the test server's transaction memory if deleted with their relationships.
        session.run("MATCH ()-[r]->() CALL (r) { DELETE r } IN TRANSACTIONS OF 2000 ROWS").consume()
        session.run("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 2000 ROWS").consume()


@pytest.fixture
def clean_db(driver: neo4j.Driver, database: str | None) -> neo4j.Driver:
    """The session driver over an empty database (wiped before the test)."""
    wipe(driver, database)
    return driver


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """`../shared/data`; skips when absent, fails when absent under CI=true."""
    if SHARED_DATA.is_dir():
        return SHARED_DATA
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but the shared data folder {SHARED_DATA} is missing")
    pytest.skip(f"shared data not found at {SHARED_DATA}")


# --- LLM / training: the packaged SmolLM2, converted once per test session ---

STALE_MARKER_FILE = "left-by-a-killed-conversion.txt"


@pytest.fixture(scope="session")
def smollm2_checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A plain checkpoint folder of the packaged SmolLM2-135M-Instruct (GGUF converted here).

    The target starts as a stale, unfinished folder (as a killed conversion leaves it), so the
    conversion also proves it replaces such leftovers; tests check `STALE_MARKER_FILE` is gone.
    Converted once per test run: the parallel workers (pytest-xdist) share one folder, the
    first converts it under a lock and the others find it done.
    """
    from seekgraph.common.llm.smollm2 import ensure_checkpoint

    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the run's folder, above each worker's own
    models = shared / "models"
    models.mkdir(exist_ok=True)
    target = models / "smollm2-135m-instruct"
    with (shared / "models.lock").open("w") as lock:  # beside the folder, not in it
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not target.exists():
            target.mkdir()
            (target / STALE_MARKER_FILE).write_text("partial\n")
        return ensure_checkpoint(target)


# --- running stages the way the CLI and the pipeline do --------------------------------------

DEFAULT_DATA = REPO_ROOT / "seekgraph" / "synth" / "default_data"
BAD_DATA = REPO_ROOT / "tests" / "data" / "bad"


def run_stage(
    stage: Any,
    driver: neo4j.Driver,
    database: str | None = None,
    *,
    out_dir: Path | None = None,
    **settings: Any,
) -> Any:
    """Run a `Stage` with `settings` as flags (the one loader, the report saved), quietly."""
    from seekgraph.cli.pipeline import run_stage as run
    from seekgraph.graphdb.stages import StageContext

    ctx = StageContext(
        driver, database, out_dir or Path("out"), echo=lambda _: None, progress_stream=None
    )
    return run(ctx, stage, ConfigFile(), settings)


def run_pipeline(
    names: tuple[str, ...],
    driver: neo4j.Driver,
    database: str | None = None,
    *,
    out_dir: Path | None = None,
    flags: dict[str, dict[str, Any]] | None = None,
    echo: Any = None,
) -> list[Any]:
    """Run the named stages in pipeline order, as `seekgraph pipeline --only ...` does."""
    from seekgraph.cli.pipeline import run_stages, select_stages
    from seekgraph.graphdb.stages import StageContext

    ctx = StageContext(
        driver,
        database,
        out_dir or Path("out"),
        echo=echo or (lambda _: None),
        progress_stream=None,
    )
    return run_stages(ctx, select_stages(names), ConfigFile(), flags)
