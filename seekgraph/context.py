"""What every command receives: resolved settings and a driver the CLI opens once and closes."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click
import neo4j

from graphdb.driver import open_driver
from graphdb.errors import GraphDBError
from graphdb.settings import Settings


@dataclass
class AppContext:
    settings: Settings
    config: dict[str, Any] = field(default_factory=dict)
    config_path: Path | None = None
    _driver: neo4j.Driver | None = None

    @property
    def database(self) -> str | None:
        return self.settings.connection.database

    def driver(self) -> neo4j.Driver:
        """Open (once) and return the driver; errors become a `click.ClickException`."""
        if self._driver is None:
            try:
                self._driver = open_driver(self.settings.connection)
            except GraphDBError as e:
                raise click.ClickException(str(e)) from e
        return self._driver

    def section(self, name: str) -> dict[str, Any]:
        """One `[section]` of the config file (empty when absent)."""
        return dict(self.config.get(name, {}))

    def close(self) -> None:
        if self._driver is not None:
            self._driver.close()
            self._driver = None


pass_app = click.make_pass_decorator(AppContext)
