"""One command per stage, generated from the stage object: same name, one flag per setting.

`seekgraph leaper-basic --max-targets 300` runs exactly what `seekgraph pipeline --only
leaper-basic` runs with ``[leaper] max_targets = 300``: the same `Stage` object, its config built
by the same loader (flag > the stage's ``--config`` file > the root config file > default).
"""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path
from typing import Any

import click

from seekgraph.cli.context import AppContext, pass_app
from seekgraph.common.config import describe, help_of
from seekgraph.graphdb.errors import StageError
from seekgraph.graphdb.stages import Stage

_SCALARS: dict[Any, Any] = {int: int, float: float, str: str, Path: click.Path(path_type=Path)}


def _inner(annotation: Any) -> Any:
    """X from ``X | None``."""
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, type(int | None)) and args:
        return args[0]
    return annotation


def _option(field: dataclasses.Field[Any], annotation: Any, default: Any) -> click.Option | None:
    """The click option of one config field (None: the field is config-file only)."""
    name, help_text = field.name, help_of(field)
    flag = name.replace("_", "-")
    shown = f"{help_text} [default: {default!r}]" if default not in (None, (), "") else help_text
    kind = _inner(annotation)
    if kind is str and "choices" in field.metadata:
        choice = click.Choice(list(field.metadata["choices"]))
        return click.Option([f"--{flag}", name], type=choice, default=None, help=shown)
    if kind is bool:
        return click.Option([f"--{flag}/--no-{flag}", name], default=None, help=shown)
    if typing.get_origin(kind) is tuple:
        item = typing.get_args(kind)[0]
        return click.Option(
            [f"--{flag}", name], multiple=True, type=_SCALARS.get(item, str), help=shown
        )
    if kind in _SCALARS:
        return click.Option([f"--{flag}", name], type=_SCALARS[kind], default=None, help=shown)
    return None


def browser_address(app: AppContext) -> tuple[str, str]:
    """Neo4j Browser's HTTP address and the Bolt URI its links connect to: the managed
    server's, or an external server's host on Neo4j's default HTTP port."""
    import urllib.parse

    bolt = app.settings.connection.uri
    if app.settings.connection.managed:
        return app.settings.server.http_url, bolt
    host = urllib.parse.urlparse(bolt).hostname or "localhost"
    return f"http://{host}:7474", bolt


def server_flags(app: AppContext, stage: Stage) -> dict[str, Any]:  # type: ignore[type-arg]
    """Settings a stage takes from the server it runs against (the report's Browser links),
    unless the config file sets them: below the config file, above the defaults."""
    names = {f.name for f in dataclasses.fields(stage.config)}
    if not {"browser_http", "browser_bolt"} <= names:
        return {}
    section = app.config.section(stage.section)
    http, bolt = browser_address(app)
    return {k: v for k, v in (("browser_http", http), ("browser_bolt", bolt)) if k not in section}


def stage_command(stage: Stage) -> click.Command:  # type: ignore[type-arg]
    """The click command of `stage`."""
    hints = typing.get_type_hints(stage.config)
    defaults = dict(stage.defaults)

    @pass_app
    def callback(
        app: AppContext, out_dir: Path, stage_config: Path | None, strict: bool, **flags: Any
    ) -> None:
        from seekgraph.cli.pipeline import SECTIONS, run_stage
        from seekgraph.common.config import read_config_file
        from seekgraph.graphdb.schema import apply_schema

        extra = read_config_file(stage_config, SECTIONS) if stage_config else None
        given = {k: (v if v != () else None) for k, v in flags.items()}
        for key, value in server_flags(app, stage).items():
            if given.get(key) is None and not (extra and key in extra.section(stage.section)):
                given[key] = value
        ctx = app.stage_context(out_dir)
        apply_schema(ctx.driver, ctx.database, echo=ctx.echo)
        report = run_stage(ctx, stage, app.config, given, extra)
        if strict and report.kept == 0 and (report.rejected or not report.skipped):
            raise StageError(
                f"{stage.name} kept nothing ({report.rejected} rejected)",
                hint="see `seekgraph db rejects --show --stage " + stage.name + "`",
            )

    command = click.Command(stage.name, callback=callback, help=f"{stage.help}.")
    fields = {f.name: f for f in dataclasses.fields(stage.config)}
    for name, default, _ in describe(stage.config):
        option = _option(fields[name], hints[name], defaults.get(name, default))
        if option is not None:
            command.params.append(option)
    command.params += [
        click.Option(
            ["--out", "out_dir"],
            type=click.Path(file_okay=False, path_type=Path),
            default=Path("out"),
            show_default=True,
            help="Where exports and reports go.",
        ),
        click.Option(
            ["--config", "stage_config"],
            type=click.Path(exists=True, dir_okay=False, path_type=Path),
            help=f"A TOML file whose [{stage.section}] section overrides the root config's.",
        ),
        click.Option(
            ["--strict"], is_flag=True, help="Exit non-zero when the stage keeps nothing."
        ),
    ]
    command.help = (
        f"{stage.help}.\n\nSettings: the [{stage.section}] section of the config file; "
        f"every setting is also a flag below."
    )
    return command
