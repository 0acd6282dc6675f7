"""Typed errors of `viz`; the CLI turns each into a message a user can act on."""

from __future__ import annotations

from seekgraph.graphdb.errors import SeekgraphError


class VizError(SeekgraphError):
    """Root of every expected failure in `viz`."""


class NotFoundError(VizError):
    """The task or rollout to draw does not exist, or has nothing to draw."""


class RenderError(VizError):
    """A renderer could not run (e.g. Graphviz's `dot` is missing)."""
