"""`seekgraph pipeline`: install and start Neo4j if needed, apply the schema, run every stage."""

from __future__ import annotations

import json
from pathlib import Path

import click

from seekgraph.cli.context import AppContext, out_option, pass_app


def ensure_server(app: AppContext) -> None:
    """Install and start the managed Neo4j when it is the one configured (no-op otherwise)."""
    from seekgraph.common.config import resolve_settings
    from seekgraph.graphdb import server, server_files
    from seekgraph.graphdb.errors import AlreadyRunningError

    if not app.settings.connection.managed:
        return
    srv = app.settings.server
    if server_files.install(srv):
        click.echo(f"installed Neo4j into {srv.home}")
    try:
        st = server.start(srv)
        click.echo(f"started Neo4j (pid {st.pid})")
    except AlreadyRunningError:
        click.echo("Neo4j already running")
    # The password file exists now: resolve again so the connection carries it.
    fresh = resolve_settings(app.config, flags={"home": srv.home})
    app.settings = type(app.settings)(server=srv, connection=fresh.connection)


@click.command()
@click.option(
    "--data",
    "data_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Data folder for the ingest stage [default: the packaged default data].",
)
@out_option
@click.option("--only", multiple=True, help="Run only these stages (repeatable).")
@click.option("--skip", multiple=True, help="Skip these stages (repeatable).")
@click.option("--with-training", is_flag=True, help="Also run the optional stages.")
@click.option("--strict", is_flag=True, help="Fail when a stage keeps nothing.")
@click.option("--list", "list_only", is_flag=True, help="List the stages and exit.")
@pass_app
def pipeline(
    app: AppContext,
    data_dir: Path | None,
    out_dir: Path,
    only: tuple[str, ...],
    skip: tuple[str, ...],
    with_training: bool,
    strict: bool,
    list_only: bool,
) -> None:
    """Run the stages in order (the default data unless --data), then print a summary.

    Each stage reads its [section] of the config file; a killed run is simply re-run (every
    stage skips finished work)."""
    from seekgraph.cli.commands.stages import server_flags
    from seekgraph.cli.pipeline import (
        STAGES,
        SUMMARY_FILE,
        run_stages,
        select_stages,
        summary_record,
        summary_table,
    )
    from seekgraph.graphdb.errors import StageError
    from seekgraph.graphdb.schema import apply_schema

    if list_only:
        for stage in STAGES:
            optional = "(optional) " if stage.optional else ""
            click.echo(f"{stage.name:<16} [{stage.section}] {optional}{stage.help}")
        return
    if data_dir is not None and not data_dir.is_dir():
        raise click.BadParameter(f"{data_dir} is not a folder", param_hint="--data")
    stages = select_stages(only, skip, with_training)
    ensure_server(app)
    ctx = app.stage_context(out_dir)
    n = apply_schema(ctx.driver, ctx.database, echo=click.echo)
    click.echo(f"schema ready ({n} statements)")
    out_dir.mkdir(parents=True, exist_ok=True)
    flags: dict[str, dict[str, object]] = {s.name: dict(server_flags(app, s)) for s in stages}
    flags["ingest"] = {"data": data_dir}

    def summary(reports: list) -> None:  # type: ignore[type-arg]
        click.echo("")
        for line in summary_table(reports):
            click.echo(line)
        click.echo("")
        record = summary_record(reports, stages)
        (out_dir / SUMMARY_FILE).write_text(json.dumps(record, indent=1) + "\n")

    reports = run_stages(ctx, stages, app.config, flags, on_failure=summary)
    summary(reports)
    if app.settings.connection.managed:
        click.echo(
            f"Neo4j Browser: {app.settings.server.browser_url}  "
            f"(user neo4j, password: `seekgraph db password`)"
        )
    else:
        click.echo(f"Neo4j: {app.settings.connection.describe()}")
    empty = [r.stage for r in reports if r.kept == 0 and (r.rejected or not r.skipped)]
    if strict and empty:
        raise StageError(f"stages kept nothing: {', '.join(empty)}", hint="see the summary above")
