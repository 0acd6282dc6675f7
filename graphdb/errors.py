"""Typed errors of the graph layer; the CLI turns each into a message a user can act on."""

from __future__ import annotations


class GraphDBError(Exception):
    """Root of every expected failure in `graphdb`."""


class InstallError(GraphDBError):
    """Neo4j could not be assembled (missing java/mvn, Maven failure)."""


class ServerError(GraphDBError):
    """The managed server could not be started, stopped or reached."""


class PortInUseError(ServerError):
    """A port the server needs is taken by another process."""


class AlreadyRunningError(ServerError):
    """`start` found the managed server already running."""


class ConnectionFailedError(GraphDBError):
    """No Neo4j answered at the configured address, or it refused our credentials."""


class CypherFileError(GraphDBError):
    """A named Cypher file is missing or a label/type failed validation."""


class ConfigError(GraphDBError):
    """A configuration file or value is invalid."""
