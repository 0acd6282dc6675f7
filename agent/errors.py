"""Typed errors of the agent side (one root); the CLI turns them into user messages."""

from __future__ import annotations


class AgentError(Exception):
    """Root of every expected failure in `agent`."""


class BackendError(AgentError):
    """An LLM backend failed (server down, bad response, out of memory).

    Never turned into text inside a trajectory: the rollout ends with termination
    `backend_error` and the error is recorded on the Rollout node.
    """


class TransientBackendError(BackendError):
    """A backend failure worth retrying (connection reset, HTTP 429/503, timeout)."""


class BackendConfigError(AgentError):
    """A backend spec that cannot work (unknown kind, missing package, missing model)."""
