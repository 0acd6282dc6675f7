"""Typed errors of `synth` (under the one root, `seekgraph.graphdb.errors.SeekgraphError`); the CLI turns each into a message a user can act on."""

from __future__ import annotations

from seekgraph.graphdb.errors import SeekgraphError


class SynthError(SeekgraphError):
    """Root of every expected failure in `synth`."""


class IngestError(SynthError):
    """An input could not be read at all (missing file, unknown format)."""


class RelationError(SynthError):
    """A relation mapping request is invalid (bad `--set` syntax, unknown header)."""
