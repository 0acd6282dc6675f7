"""Typed errors of the WebClipper pruning stage (one root); the CLI turns them into messages."""

from __future__ import annotations


class ClipperError(Exception):
    """Root of every expected failure in `training.stategraph`."""


class WireFormatError(ClipperError):
    """A trajectory is not in the Tongyi wire format (the message says where and why)."""


class StateGraphError(ClipperError):
    """A state graph cannot derive its answer (an action relies on information nobody produced)."""


class RewriteError(ClipperError):
    """Thought rewriting could not run (no backend, no scoring model)."""
