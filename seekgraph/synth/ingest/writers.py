"""Where ingest's reads and writes go: Neo4j over Bolt (every run), or a graph in memory that
is imported in one go (`seekgraph.synth.ingest.bulk`, a first load of an empty graph).

Ingest names each write by its Cypher file and passes the parameter rows; the two writers take
the same names and rows, so both paths build the same graph from the same decisions.
"""

from __future__ import annotations

from typing import Any, Protocol

import neo4j

from seekgraph.graphdb import cypher
from seekgraph.graphdb.stages import StageReport, save_rejections


class GraphWriter(Protocol):
    """The reads and writes of ingest, by Cypher file name."""

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        """Rows of the read query `name`."""
        ...

    def write(self, name: str, rows: list[dict[str, Any]], *, batch_size: int) -> None:
        """Apply the ``UNWIND $rows`` write query `name` to `rows`, in order."""
        ...

    def save_rejections(self, report: StageReport) -> None:
        """Store the report's new rejections now (resume safety), if this writer can."""
        ...


class CypherWriter:
    """Every read and write a query on the server (batched write transactions)."""

    def __init__(self, driver: neo4j.Driver, database: str | None = None) -> None:
        self.driver = driver
        self.database = database

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return cypher.read(self.driver, name, database=self.database, **params)

    def write(self, name: str, rows: list[dict[str, Any]], *, batch_size: int) -> None:
        if rows:
            cypher.run_batches(
                self.driver, name, rows, database=self.database, batch_size=batch_size
            )

    def save_rejections(self, report: StageReport) -> None:
        save_rejections(self.driver, report, self.database)
