"""What every command receives: resolved settings, the config file, and a driver the CLI opens
once (the CLI owns the driver; library functions take it as an argument)."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import click
import neo4j

from seekgraph.common.config import ConfigFile
from seekgraph.graphdb.driver import open_driver
from seekgraph.graphdb.settings import Settings
from seekgraph.graphdb.stages import StageContext


@dataclass
class AppContext:
    settings: Settings
    config: ConfigFile = field(default_factory=ConfigFile)
    debug: bool = False
    _driver: neo4j.Driver | None = None

    @property
    def database(self) -> str | None:
        return self.settings.connection.database

    def driver(self) -> neo4j.Driver:
        """Open (once) and return the driver; a failure is a `ConnectionFailedError`."""
        if self._driver is None:
            self._driver = open_driver(self.settings.connection)
        return self._driver

    def reconnect(self) -> neo4j.Driver:
        """A new driver in place of the old one (e.g. after the database was replaced)."""
        self.close()
        return self.driver()

    def stage_context(self, out_dir: Path = Path("out")) -> StageContext:
        wait, stale = self.settings.connection.run_lock
        return StageContext(
            self.driver(),
            self.database,
            out_dir,
            echo=click.echo,
            progress_stream=sys.stderr,
            lock_wait_seconds=wait,
            lock_stale_seconds=stale,
        )

    def close(self) -> None:
        if self._driver is not None:
            self._driver.close()
            self._driver = None


pass_app = click.make_pass_decorator(AppContext)

out_option = click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("out"),
    show_default=True,
    help="Where exports and reports go.",
)
