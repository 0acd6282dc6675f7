"""Typed errors of the WebClipper pruning stage (under the one root, `seekgraph.graphdb.errors.SeekgraphError`); the CLI turns them into messages."""

from __future__ import annotations

from seekgraph.graphdb.errors import SeekgraphError


class ClipperError(SeekgraphError):
    """Root of every expected failure in `seekgraph.training.stategraph`."""


class StateGraphError(ClipperError):
    """A state graph cannot derive its answer (an action relies on information nobody produced)."""


class ExtractionWorkerError(ClipperError):
    """A worker process extracting state graphs died (killed, out of memory)."""


class RewriteError(ClipperError):
    """Thought rewriting could not run (no backend, no scoring model)."""
