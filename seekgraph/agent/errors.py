"""Errors of the agent side (under the one root, `seekgraph.graphdb.errors.SeekgraphError`)."""

from __future__ import annotations

from seekgraph.graphdb.errors import SeekgraphError


class AgentError(SeekgraphError):
    """Root of every expected failure in `agent`."""
