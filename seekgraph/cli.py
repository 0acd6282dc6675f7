"""Root of the `seekgraph` command. Subcommands load lazily so `seekgraph --help` stays instant.

Each entry of `COMMANDS` maps a subcommand name to ``module:attribute``; the module must import
only light things at top level (click, graphdb) and import torch/transformers inside functions.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import click

from graphdb.errors import GraphDBError
from graphdb.settings import load_config_file, resolve
from seekgraph.context import AppContext

COMMANDS: dict[str, str] = {
    "prune": "training.prune_cli:prune",
    "dataset": "training.cli:dataset",
    "train": "training.cli:train",
    "eval": "training.cli:eval_command",
    "trained-on": "training.cli:trained_on",
    "db": "seekgraph.commands.db:db",
    "export": "synth.leaper.cli:export",
    "ingest": "synth.cli:ingest",
    "pipeline": "seekgraph.commands.pipeline:pipeline",
    "synth": "synth.commands:synth",
    "rollout": "agent.cli:rollout",
    "score": "agent.cli:score",
    "filter": "agent.cli:filter_command",
    "web": "agent.cli:web",
    "viz": "viz.cli:viz",
    "report": "viz.cli:report",
    "browse": "viz.cli:browse",
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported only when listed or invoked."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        command = getattr(importlib.import_module(module_name), attr)
        assert isinstance(command, click.Command)
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
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
@click.version_option(package_name="seekgraph")
@click.pass_context
def main(ctx: click.Context, config_path: Path | None, **flags: Any) -> None:
    """seekgraph: training data for web-research agents, kept in one Neo4j graph.

    Start with `seekgraph pipeline` (everything on the default data), or
    `seekgraph db start` and the stage commands.
    """
    try:
        config = load_config_file(config_path)
        settings = resolve(flags=flags, config=config)
    except GraphDBError as e:
        raise click.ClickException(str(e)) from e
    app = AppContext(settings=settings, config=config, config_path=config_path)
    ctx.obj = app
    ctx.call_on_close(app.close)
