"""Errors of the LLM backends (under the one root, `seekgraph.graphdb.errors.SeekgraphError`)."""

from __future__ import annotations

from seekgraph.graphdb.errors import SeekgraphError


class LLMError(SeekgraphError):
    """Root of the LLM backends' expected failures."""


class BackendError(LLMError):
    """An LLM backend failed (server down, bad response, out of memory).

    Never turned into text inside a trajectory: the rollout ends with termination
    `backend_error` and the error is recorded on the Rollout node.
    """


class TransientBackendError(BackendError):
    """A backend failure worth retrying (connection reset, HTTP 429/503, timeout)."""


class BackendConfigError(LLMError):
    """A backend spec that cannot work (unknown kind, missing package, missing model)."""
