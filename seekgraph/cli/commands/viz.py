"""`seekgraph viz` (pictures of a task or trajectory) and `seekgraph browse` (Neo4j Browser links)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import click

from seekgraph.cli.context import AppContext, pass_app
from seekgraph.graphdb import cypher

PICTURES = ("answers", "task", "kp", "trajectory", "biclique", "steps")


def _file_stem(kind: str, subject_id: str) -> str:
    return f"{kind}-{re.sub(r'[^A-Za-z0-9._-]+', '_', subject_id)[:80]}"


@click.command()
@click.argument("kind", type=click.Choice(PICTURES))
@click.argument("subject_id")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("out/viz"),
    show_default=True,
    help="Folder for the HTML and SVG.",
)
@click.option("--no-svg", is_flag=True, help="Write only the interactive HTML.")
@click.option(
    "--max-anchors",
    default=4,
    show_default=True,
    help="Task pictures: anchors besides the answers drawn per tree (clue holders first); "
    "0 draws all.",
)
@click.option(
    "--max-answers",
    default=20,
    show_default=True,
    help="Task pictures: answers drawn (a gold ring each); 0 draws all.",
)
@click.option(
    "--page",
    default=1,
    show_default=True,
    help="Trajectory and steps pictures: which page of actions or steps.",
)
@click.option(
    "--per-page",
    default=0,
    help="Actions (trajectory) or steps (steps) per page [default: 10 and 20].",
)
@pass_app
def viz(
    app: AppContext,
    kind: str,
    subject_id: str,
    out_dir: Path,
    no_svg: bool,
    max_anchors: int,
    max_answers: int,
    page: int,
    per_page: int,
) -> None:
    """Draw a task, KP task or trajectory as interactive HTML and static SVG.

    KIND is `answers` (a task's question, gold records and the source rows proving each one:
    the view to audit a task with), `task` (a WebLeaper tree or union/reverse-union task),
    `kp` (a WebShaper KP task),
    `trajectory` (a rollout's state graph: necessary DAG, pruned steps greyed), `biclique`
    (the biclique behind a union task) or `steps` (a rollout's steps as recorded).
    SUBJECT_ID is a task id (task, kp, biclique) or a rollout id (trajectory, steps).
    Trajectories and steps are drawn a page at a time (`--page`), in rows, so a rollout of
    100 steps stays readable; the picture's notes say how many pages there are.
    """
    from seekgraph.viz import graphs, vizgraph
    from seekgraph.viz.html import write_html
    from seekgraph.viz.svg import write_svg

    if kind == "answers":
        from seekgraph.viz.answers import answers_text, load_answers, write_answers_html

        view = load_answers(app.driver(), app.database, subject_id)
        for line in answers_text(view):
            click.echo(line)
        path = write_answers_html(view, out_dir / f"{_file_stem(kind, subject_id)}.html")
        click.echo(f"  html: {path}")
        return
    if page < 1 or per_page < 0:
        raise click.BadParameter("--page starts at 1 and --per-page at 0")
    options = vizgraph.Options(max_anchors, max_answers, page, per_page)
    vg = graphs.load(app.driver(), kind, subject_id, app.database, options=options)
    stem = _file_stem(kind, subject_id) + (f"-p{page}" if page > 1 else "")
    html_path = write_html(vg, out_dir / f"{stem}.html")
    click.echo(f"{vg.title}")
    for note in vg.notes:
        click.echo(f"  {note}")
    click.echo(f"  {len(vg.nodes)} nodes, {len(vg.edges)} edges")
    click.echo(f"  html: {html_path}")
    if not no_svg:
        click.echo(f"  svg:  {write_svg(vg, out_dir / f'{stem}.svg')}")


def _pick_query(app: AppContext, subject_id: str) -> str:
    rows = cypher.read(
        app.driver(), "viz/find_subject_kind", database=app.database, subject_id=subject_id
    )
    row = rows[0] if rows else {}
    if row.get("task_kind") == "shaper":
        return "explore/show_kp_task"
    if row.get("task_kind") is not None:
        return "explore/show_leaper_task"
    if row.get("is_rollout"):
        return (
            "explore/show_trajectory"
            if row.get("has_state_graph")
            else "explore/show_rollout_steps"
        )
    raise click.ClickException(
        f"no task or rollout with id {subject_id!r}; `seekgraph browse --list` prints the ids"
    )


def _list_ids(app: AppContext, page: int, per_page: int) -> None:
    """One page of task ids and one of rollout ids, each with how many pages there are."""
    if page < 1 or per_page < 1:
        raise click.BadParameter("--page and --per-page start at 1")
    skip = (page - 1) * per_page
    for name, query, show in (
        (
            "tasks",
            "viz/list_tasks_page",
            lambda r: (
                f"{r['task_id']:<40} {r['kind']}/{r['variant']} {r['status'] or ''} "
                f"({r['n_targets'] or 0} targets)"
            ),
        ),
        (
            "rollouts",
            "viz/list_rollouts_page",
            lambda r: (
                f"{r['rollout_id']:<56} {r['termination'] or ''} {r['rounds'] or 0} rounds"
                + (" kept" if r["kept"] else "")
                + (" (pruned copy)" if r["pruned"] else "")
            ),
        ),
    ):
        rows = cypher.read(app.driver(), query, database=app.database, skip=skip, limit=per_page)
        if not rows:
            click.echo(f"{name}: none" + (f" on page {page}" if page > 1 else ""))
            continue
        total = int(rows[0]["total"])
        pages = -(-total // per_page)
        click.echo(f"{name} ({total}; page {page} of {pages}: {skip + 1}-{skip + len(rows)}):")
        for r in rows:
            click.echo(f"  {show(r)}")
        if page < pages:
            click.echo(f"  more: --page {page + 1}")


@click.command()
@click.argument("subject_id", required=False)
@click.option("--query", "query_name", help="Exploration query to open (see --list).")
@click.option(
    "--list", "list_only", is_flag=True, help="List the queries, task ids and rollout ids."
)
@click.option("--page", default=1, show_default=True, help="Page of tasks and rollouts (--list).")
@click.option("--per-page", default=50, show_default=True, help="Ids per page (--list).")
@click.option(
    "--guide", is_flag=True, help="Serve the queries as a Browser guide on localhost until Ctrl-C."
)
@click.option("--port", default=0, show_default=True, help="Port of the guide server (0: any).")
@click.option("--http-url", help="Neo4j's HTTP address (default: the managed server's).")
@pass_app
def browse(
    app: AppContext,
    subject_id: str | None,
    query_name: str | None,
    list_only: bool,
    guide: bool,
    port: int,
    http_url: str | None,
    page: int,
    per_page: int,
) -> None:
    """Print a Neo4j Browser link that opens with the right query for a task or rollout id."""
    from seekgraph.cli.commands.stages import browser_address
    from seekgraph.viz.browser_guide import (
        TABLE_VIEW,
        browser_url,
        explore_queries,
        guide_play_url,
        query_for,
        render_guide,
        serve_guide,
    )

    http, bolt = browser_address(app)
    http = http_url or http
    user = app.settings.connection.username
    if list_only:
        click.echo("queries (seekgraph/cypher/explore/):")
        for q in explore_queries():
            need = f" [needs a {q.kind} id]" if q.param else ""
            click.echo(f"  {q.name.split('/')[-1]:<22} {q.title}{need}")
        _list_ids(app, page, per_page)
        return
    if guide:
        rows = cypher.read(app.driver(), "explore/list_tasks", database=app.database)
        examples = {"task": rows[0]["task_id"]} if rows else {}
        httpd, url = serve_guide(render_guide(examples), port)
        click.echo(f"guide served at {url}; in Browser run  :play {url}")
        click.echo(f"or open {guide_play_url(http, bolt, url, user)}")
        click.echo("Ctrl-C stops the guide server.")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            httpd.shutdown()
        return
    if query_name:
        try:
            query = query_for(query_name)
        except KeyError as e:
            raise click.UsageError(
                f"unknown query {query_name!r}; see `seekgraph browse --list`"
            ) from e
    elif subject_id:
        query = query_for(_pick_query(app, subject_id))
    else:
        query = query_for("explore/count_stage_results")
    if query.param and not subject_id:
        raise click.UsageError(f"query {query.name} needs a {query.kind} id")
    click.echo(browser_url(http, bolt, query, subject_id, user))
    if query.draws_graph and subject_id:
        table = query_for(TABLE_VIEW[query.name])
        click.echo(f"table view ({table.title}):")
        click.echo(browser_url(http, bolt, table, subject_id, user))
