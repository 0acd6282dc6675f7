"""`seekgraph db ...`: install, run and initialise the project's Neo4j; read its bookkeeping."""

from __future__ import annotations

from pathlib import Path

import click

from seekgraph.cli.context import AppContext, out_option, pass_app
from seekgraph.graphdb import server, server_files
from seekgraph.graphdb.errors import AlreadyRunningError, ConfigError
from seekgraph.graphdb.schema import SCHEMA_VERSION, apply_schema, describe_schema


def _require_managed(app: AppContext, action: str, hint: str = "") -> None:
    if not app.settings.connection.managed:
        raise ConfigError(
            f"cannot {action}: seekgraph is configured to use the existing Neo4j at "
            f"{app.settings.connection.uri}",
            hint=hint or "unset NEO4J_URI / [neo4j] uri to use the managed server",
        )


@click.group()
def db() -> None:
    """Install, start, stop, back up and initialise the Neo4j server; list rejections."""


@db.command()
@click.option("--force", is_flag=True, help="Re-assemble even when the jars are already there.")
@pass_app
def install(app: AppContext, force: bool) -> None:
    """Assemble Neo4j 5.26 Community + Browser + APOC from Maven Central."""
    _require_managed(app, "install")
    changed = server_files.install(app.settings.server, force=force)
    click.echo(
        f"{'installed' if changed else 'already installed'}: Neo4j in {app.settings.server.home}"
    )


@db.command()
@click.option("--timeout", default=180.0, show_default=True, help="Seconds to wait for Bolt.")
@pass_app
def start(app: AppContext, timeout: float) -> None:
    """Start the server and wait until it answers."""
    _require_managed(app, "start")
    try:
        st = server.start(app.settings.server, timeout=timeout)
    except AlreadyRunningError as e:
        click.echo(f"already running: {e}")
        return
    click.echo(f"started (pid {st.pid}); Bolt {st.bolt_uri}; Browser {st.browser_url}")


@db.command()
@click.option(
    "--timeout",
    default=60.0,
    show_default=True,
    help="Seconds to wait after SIGTERM before SIGKILL.",
)
@pass_app
def stop(app: AppContext, timeout: float) -> None:
    """Stop the server gracefully."""
    _require_managed(app, "stop")
    stopped = server.stop(app.settings.server, timeout=timeout)
    click.echo("stopped" if stopped else "not running")


@db.command()
@pass_app
def status(app: AppContext) -> None:
    """Print addresses, the Browser URL, and whether the server answers."""
    conn = app.settings.connection
    if not conn.managed:
        app.driver()
        click.echo(f"external Neo4j {conn.describe()}: answers")
        return
    st = server.status(app.settings.server)
    state = "up" if st.answers else ("starting or unhealthy" if st.process_alive else "down")
    click.echo(f"server:   {state}" + (f" (pid {st.pid})" if st.pid else ""))
    if st.process_alive and not st.answers:
        click.echo(f"detail:   {st.detail}")
    click.echo(f"bolt:     {st.bolt_uri}")
    click.echo(f"http:     {st.http_url}")
    click.echo(f"browser:  {st.browser_url}")
    click.echo(f"user:     neo4j (password in {app.settings.server.password_file})")
    if not st.answers:
        raise SystemExit(1)


@db.command()
@click.option("-n", "--lines", default=50, show_default=True)
@pass_app
def logs(app: AppContext, lines: int) -> None:
    """Print the last lines of the server log."""
    _require_managed(app, "show logs")
    click.echo(server.tail_log(app.settings.server, lines))


@db.command()
@pass_app
def init(app: AppContext) -> None:
    """Create constraints and indexes (idempotent) and record the schema version."""
    driver = app.driver()
    n = apply_schema(driver, app.database, echo=click.echo)
    schema = describe_schema(driver, app.database)
    click.echo(
        f"schema v{SCHEMA_VERSION}: {n} statements applied; "
        f"{len(schema['constraints'])} constraints, {len(schema['indexes'])} indexes"
    )


@db.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--overwrite", is_flag=True, help="Replace FILE when it exists.")
@pass_app
def dump(app: AppContext, file: Path, overwrite: bool) -> None:
    """Back up the managed server's graph into FILE (neo4j-admin dump + a manifest).

    Neo4j Community dumps only a stopped database: a running server is stopped for the dump
    and started again. FILE is a tar of the dump and a manifest (Neo4j and schema versions,
    checksum) that `db restore` checks. For an external server, use neo4j-admin on its host
    (docs/neo4j.md, Backups)."""
    from seekgraph.graphdb.backup import EXTERNAL_HINT
    from seekgraph.graphdb.backup import dump as dump_graph

    _require_managed(app, "dump", EXTERNAL_HINT)
    app.close()  # the server stops: the driver's connections end
    result = dump_graph(
        app.settings.server,
        file,
        database=app.database or "neo4j",
        overwrite=overwrite,
        echo=click.echo,
    )
    m = result.manifest
    click.echo(
        f"dumped {m['nodes']} nodes, {m['relationships']} relationships (schema "
        f"v{m['schema_version']}, Neo4j {m['neo4j_version']}) to {file} "
        f"({m['dump_bytes'] / 1e6:.1f} MB) in {result.seconds:.1f}s"
        + ("; Neo4j started again" if result.restarted else "")
    )


@db.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.confirmation_option(prompt="Replace the current graph with the one in FILE?")
@pass_app
def restore(app: AppContext, file: Path) -> None:
    """Replace the managed server's graph with the backup FILE (from `db dump`).

    FILE is checked first (a seekgraph dump, undamaged, of this Neo4j version, of a schema this
    seekgraph knows); anything else is refused and the current graph left as it is. The
    current store is kept aside until the load has succeeded. A running server is stopped and
    started again. For an external server, use neo4j-admin on its host (docs/neo4j.md)."""
    from seekgraph.graphdb.backup import EXTERNAL_HINT
    from seekgraph.graphdb.backup import restore as restore_graph

    _require_managed(app, "restore", EXTERNAL_HINT)
    app.close()
    result = restore_graph(
        app.settings.server, file, database=app.database or "neo4j", echo=click.echo
    )
    m = result.manifest
    click.echo(
        f"restored {m['nodes']} nodes, {m['relationships']} relationships (schema "
        f"v{m['schema_version']}, dumped {m['created_at']}) from {file} in "
        f"{result.seconds:.1f}s" + ("; Neo4j started again" if result.restarted else "")
    )


@db.command()
@pass_app
def password(app: AppContext) -> None:
    """Print the managed server's password (read from its 0600 file)."""
    _require_managed(app, "print the password")
    path = app.settings.server.password_file
    if not path.exists():
        raise click.ClickException(f"no password yet ({path}); run `seekgraph db start` once")
    click.echo(path.read_text().strip())


@db.command()
@click.option("--stage", default=None, help="Only this stage.")
@click.option("--reason", default=None, help="Only this reason (with --show).")
@click.option("--show", is_flag=True, help="List the records: id (file:line), reason, detail.")
@click.option("--limit", default=50, show_default=True, help="Records per page (with --show).")
@click.option("--page", default=1, show_default=True, help="Page number (with --show).")
@pass_app
def rejects(
    app: AppContext, stage: str | None, reason: str | None, show: bool, limit: int, page: int
) -> None:
    """Count rejected records by stage and reason, or list them (--show)."""
    from seekgraph.graphdb import cypher

    if not show:
        rows = cypher.read(
            app.driver(), "stages/count_rejections_by_reason", database=app.database, stage=stage
        )
        if not rows:
            click.echo("no rejections recorded")
        for row in rows:
            click.echo(f"{row['stage']:<24} {row['n']:>7}  {row['reason']}")
        return
    if limit < 1 or page < 1:
        raise click.BadParameter("--limit and --page start at 1")
    rows = cypher.read(
        app.driver(),
        "stages/list_rejections",
        database=app.database,
        stage=stage,
        reason=reason,
        skip=(page - 1) * limit,
        limit=limit + 1,
    )
    if not rows:
        click.echo("no rejections recorded" if page == 1 else f"page {page} is empty")
    for row in rows[:limit]:
        detail = " ".join(str(row["detail"] or "").split())[:160]
        click.echo(f"{row['stage']}\t{row['record_id']}\t{row['reason']}\t{detail}")
    if len(rows) > limit:
        click.echo(f"(more: --page {page + 1})")


@db.command("delete-kp-tasks")
@click.option(
    "--source",
    "sources",
    multiple=True,
    default=("seed", "expanded"),
    show_default=True,
    type=click.Choice(["published", "seed", "expanded"]),
    help="Which KP tasks to delete (repeatable).",
)
@click.confirmation_option(prompt="Delete these KP tasks and their rejections?")
@pass_app
def delete_kp_tasks(app: AppContext, sources: tuple[str, ...]) -> None:
    """Delete WebShaper KP tasks (default: seeds and expansions) to make them again."""
    from seekgraph.synth.shaper.store import delete_tasks

    delete_tasks(app.driver(), app.database, list(sources))
    click.echo(f"deleted KP tasks of sources {', '.join(sources)}")


@db.command()
@click.option(
    "--data",
    type=click.Path(path_type=Path),
    default=None,
    help="Data folder [default: the packaged default data].",
)
@click.option("--replace", is_flag=True, help="Replace a graph that already holds data.")
@out_option
@pass_app
def load(app: AppContext, data: Path | None, replace: bool, out_dir: Path) -> None:
    """First load of an empty graph with the import tool (the same graph as `ingest`, faster).

    Reads the data as `seekgraph ingest` does (its [ingest] settings), builds the graph in
    memory, stops the server, runs `neo4j-admin database import`, starts it again and builds
    the schema. A later `seekgraph ingest` of the same data skips every record.
    """
    from seekgraph.common.config import load_stage_config
    from seekgraph.graphdb.stages import save_report
    from seekgraph.synth.ingest.bulk import bulk_load
    from seekgraph.synth.stages import INGEST

    _require_managed(app, "bulk load")
    config = load_stage_config(INGEST, app.config, {"data": data} if data else None)
    ctx = app.stage_context(out_dir)  # the import replaces the schema: bulk_load rebuilds it
    report, driver = bulk_load(
        ctx, config, app.settings.server, reconnect=app.reconnect, replace=replace
    )
    save_report(driver, report, ctx.database)
    for line in report.summary_lines():
        click.echo(line)
