"""Typed errors of datasets, SFT, GRPO and evaluation (under the one root, `seekgraph.graphdb.errors.SeekgraphError`); the CLI turns them into messages."""

from __future__ import annotations

from seekgraph.graphdb.errors import SeekgraphError


class TrainingError(SeekgraphError):
    """Root of every expected failure in dataset building, training and evaluation."""


class TrainingConfigError(TrainingError):
    """A config file or spec that cannot work (unknown key, wrong type, missing file)."""


class DatasetError(TrainingError):
    """A dataset that cannot be built or found (no trajectories selected, missing folder)."""
