"""The `seekgraph` command: one root group, one command per stage, and the tools around them.

Stage commands are generated from the stage objects in `seekgraph.cli.pipeline.STAGES` (name, help,
one flag per config field); the other commands live in `seekgraph/cli/commands/` and load lazily,
so `seekgraph --help` imports no torch. Every expected failure (`SeekgraphError`, a lost Neo4j
connection, refused credentials) ends the command with one line saying what to do and a non-zero
exit; ``--debug`` shows the traceback instead.
"""

from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path
from typing import Any

import click
import neo4j.exceptions

from seekgraph.graphdb.driver import RATE_LIMITED
from seekgraph.graphdb.errors import SeekgraphError

TOOLS: dict[str, str] = {
    "db": "seekgraph.cli.commands.db:db",
    "pipeline": "seekgraph.cli.commands.pipeline:pipeline",
    "show": "seekgraph.cli.commands.show:show",
    "export": "seekgraph.cli.commands.export:export",
    "web": "seekgraph.cli.commands.web:web",
    "viz": "seekgraph.cli.commands.viz:viz",
    "browse": "seekgraph.cli.commands.viz:browse",
}


def _one_line(e: BaseException, uri: str) -> tuple[str, str] | None:
    """(message, hint) for an expected failure, else None (a bug keeps its traceback)."""
    if isinstance(e, SeekgraphError):
        return " ".join(str(e).split()), e.hint
    if isinstance(e, neo4j.exceptions.Neo4jError) and e.code == RATE_LIMITED:
        # sent as a ClientError, not an AuthError
        return (
            f"Neo4j at {uri} refuses logins for a while after several wrong passwords",
            "wait a few seconds and retry with the right password (`seekgraph db password`)",
        )
    if isinstance(e, neo4j.exceptions.AuthError):
        return f"Neo4j at {uri} refused the credentials", "check --password / NEO4J_PASSWORD"
    if isinstance(e, neo4j.exceptions.ServiceUnavailable | neo4j.exceptions.SessionExpired):
        return (
            f"lost the connection to Neo4j at {uri}: {' '.join(str(e).split())[:200]}",
            "check that it runs (`seekgraph db status`), then re-run: stages resume",
        )
    if isinstance(e, neo4j.exceptions.Neo4jError):
        return f"Neo4j error {e.code}: {' '.join(str(e.message).split())[:300]}", ""
    return None


class Root(click.Group):
    """Lists stage commands first, then the tools; turns expected failures into one line."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        from seekgraph.cli.pipeline import STAGES

        return [s.name for s in STAGES] + sorted(TOOLS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in TOOLS:
            module_name, attr = TOOLS[cmd_name].split(":")
            command = getattr(importlib.import_module(module_name), attr)
            assert isinstance(command, click.Command)
            return command
        from seekgraph.cli.commands.stages import stage_command
        from seekgraph.cli.pipeline import STAGES

        stage = next((s for s in STAGES if s.name == cmd_name), None)
        return stage_command(stage) if stage is not None else None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from seekgraph.cli.pipeline import STAGES

        stages = [(s.name, s.help + (" (optional)" if s.optional else "")) for s in STAGES]
        tools = []
        for name in sorted(TOOLS):
            command = self.get_command(ctx, name)
            if command is not None:
                tools.append((name, command.get_short_help_str(80)))
        with formatter.section("Stages (in pipeline order)"):
            formatter.write_dl(stages)
        with formatter.section("Tools"):
            formatter.write_dl(tools)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except Exception as e:
            app = ctx.obj
            uri = app.settings.connection.uri if app is not None else "?"
            line = _one_line(e, uri)
            if line is None or (app is not None and app.debug):
                raise
            message, hint = line
            raise click.ClickException(f"{message}" + (f" ({hint})" if hint else "")) from e


@click.group(cls=Root, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="TOML config file (default: $SEEKGRAPH_CONFIG, else ./seekgraph.toml).",
)
@click.option(
    "--uri", help="Use an existing Neo4j at this URI (bolt:// or neo4j://) [env NEO4J_URI]."
)
@click.option("--username", help="Neo4j user [env NEO4J_USERNAME].")
@click.option("--password", help="Neo4j password [env NEO4J_PASSWORD].")
@click.option("--database", help="Neo4j database [env NEO4J_DATABASE].")
@click.option(
    "--neo4j-home",
    "home",
    type=click.Path(file_okay=False, path_type=Path),
    help="Home of the managed Neo4j (default: ~/.local/share/seekgraph/neo4j).",
)
@click.option("--debug", is_flag=True, help="Show tracebacks instead of one-line errors.")
@click.version_option(package_name="seekgraph", prog_name="seekgraph")
@click.pass_context
def main(ctx: click.Context, config_path: Path | None, debug: bool, **flags: Any) -> None:
    """seekgraph: training data for web-research agents, kept in one Neo4j graph.

    Start with `seekgraph pipeline` (every stage on the default data), or run one stage by its
    name; `seekgraph STAGE --help` lists its settings ([section] of the config file).
    """
    from seekgraph.common.offline import quiet_progress_bars

    quiet_progress_bars()  # before any library that draws bars is imported
    from seekgraph.cli.context import AppContext
    from seekgraph.cli.pipeline import SECTIONS
    from seekgraph.common.config import read_config_file, resolve_settings
    from seekgraph.viz.style import browser_post_connect_cmd

    try:
        config = read_config_file(config_path, SECTIONS)
        settings = resolve_settings(config, flags=flags)
    except SeekgraphError as e:
        if debug:
            raise
        raise click.ClickException(e.one_line()) from e
    server = dataclasses.replace(settings.server, browser_post_connect=browser_post_connect_cmd())
    app = AppContext(dataclasses.replace(settings, server=server), config, debug)
    ctx.obj = app
    ctx.call_on_close(app.close)
