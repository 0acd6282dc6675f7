"""The one error root of seekgraph, and the errors of the graph layer.

Every expected failure in any package derives from `SeekgraphError`. The command line catches
that one class and prints its message as one line (with the `hint` saying what to do); the
traceback appears only with ``seekgraph --debug``. Real bugs are not `SeekgraphError`s and keep
their traceback.
"""

from __future__ import annotations


class SeekgraphError(Exception):
    """Root of every expected failure; `hint` says what the user can do about it."""

    def __init__(self, message: str, *, hint: str = "") -> None:
        super().__init__(message)
        self.hint = hint

    def one_line(self) -> str:
        """The message and its hint on one line (newlines in details folded)."""
        text = " ".join(str(self).split())
        return f"{text} ({self.hint})" if self.hint else text


class GraphDBError(SeekgraphError):
    """A failure of the graph layer (server, connection, Cypher files)."""


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


class ConfigError(SeekgraphError):
    """A configuration file or value is invalid (the message names the file and the key)."""


class StageError(SeekgraphError):
    """A stage cannot run with what it was given (missing input, nothing to do under --strict)."""
