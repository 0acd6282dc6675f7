"""`seekgraph pipeline`: install and start Neo4j if needed, init the schema, run every stage."""

from __future__ import annotations

from pathlib import Path

import click

from graphdb import server
from graphdb.errors import AlreadyRunningError, GraphDBError
from graphdb.schema import apply_schema
from graphdb.settings import resolve
from graphdb.stages import StageReport
from seekgraph import DEFAULT_DATA
from seekgraph.context import AppContext, pass_app
from seekgraph.pipeline import STAGES, PipelineContext, run_stages, select_stages, summary_table


@click.command()
@click.option(
    "--data",
    "data_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=DEFAULT_DATA,
    show_default=True,
    help="Data set folder.",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("out"),
    show_default=True,
    help="Where exports and reports go.",
)
@click.option("--only", multiple=True, help="Run only these stages (repeatable).")
@click.option("--skip", multiple=True, help="Skip these stages (repeatable).")
@click.option("--with-training", is_flag=True, help="Also run the optional training stages.")
@click.option("--list", "list_only", is_flag=True, help="List the stages and exit.")
@pass_app
def pipeline(
    app: AppContext,
    data_dir: Path,
    out_dir: Path,
    only: tuple[str, ...],
    skip: tuple[str, ...],
    with_training: bool,
    list_only: bool,
) -> None:
    """Run the whole pipeline (the default data unless --data), then print a summary."""
    if list_only:
        for stage in STAGES:
            click.echo(f"{stage.name:<20} {'(optional) ' if stage.optional else ''}{stage.help}")
        return
    try:
        stages = select_stages(only, skip, with_training)
    except ValueError as e:
        raise click.UsageError(str(e)) from e
    if app.settings.connection.managed:
        srv = app.settings.server
        try:
            if server.install(srv):
                click.echo(f"installed Neo4j into {srv.home}")
            st = server.start(srv)
            click.echo(f"started Neo4j (pid {st.pid})")
        except AlreadyRunningError:
            click.echo("Neo4j already running")
        except GraphDBError as e:
            raise click.ClickException(str(e)) from e
        # The password file exists now; re-resolve so the connection carries it.
        app.settings = resolve(flags={"home": srv.home}, config=app.config)
    driver = app.driver()
    n = apply_schema(driver, app.database)
    click.echo(f"schema ready ({n} statements)")
    out_dir.mkdir(parents=True, exist_ok=True)
    ctx = PipelineContext(
        driver=driver,
        database=app.database,
        data_dir=data_dir,
        out_dir=out_dir,
        config=app.config,
        with_training=with_training,
        echo=click.echo,
    )
    reports: list[StageReport] = run_stages(ctx, stages)
    click.echo("")
    for line in summary_table(reports):
        click.echo(line)
    click.echo("")
    if app.settings.connection.managed:
        click.echo(
            f"Neo4j Browser: {app.settings.server.browser_url}  "
            f"(user neo4j, password: `seekgraph db password`)"
        )
    else:
        click.echo(f"Neo4j: {app.settings.connection.describe()}")
