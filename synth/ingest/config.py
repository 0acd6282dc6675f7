"""Cleaning thresholds and batch sizes for ingest, as a typed dataclass with help text.

Precedence: CLI flag > ``[synth]`` section of the config file > default. Every field's help is
shown by `seekgraph ingest tables --help` (the flags are generated from this dataclass).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from synth.errors import IngestError


def _opt(default: Any, help: str) -> Any:
    return field(default=default, metadata={"help": help})


@dataclass(frozen=True)
class IngestConfig:
    """What makes a table worth keeping (the paper keeps large, regular, homogeneous tables)."""

    min_rows: int = _opt(5, "Reject tables with fewer data rows.")
    max_rows: int = _opt(500, "Reject tables with more data rows (lists, not entity tables).")
    min_cols: int = _opt(2, "Reject tables with fewer columns (a key and one attribute).")
    max_empty_share: float = _opt(0.5, "Reject tables where a larger share of cells is empty.")
    max_ragged_share: float = _opt(
        0.0, "Reject tables where a larger share of rows has a different length than the header."
    )
    allow_duplicate_headers: bool = _opt(False, "Keep tables whose header repeats a column name.")
    max_cell_chars: int = _opt(20_000, "Reject tables with a cell longer than this (characters).")
    min_key_score: float = _opt(0.45, "Reject tables whose best key column scores lower.")
    min_key_link_ratio: float = _opt(
        0.5, "A key column needs this share of linked cells, unless the table has no links."
    )
    min_key_uniqueness: float = _opt(0.6, "A key column needs this share of distinct values.")
    table_batch: int = _opt(50, "Tables written per round of transactions.")
    cell_batch: int = _opt(2000, "Cells, rows or facts per write transaction.")
    page_batch: int = _opt(500, "Pages per write transaction.")

    @classmethod
    def from_section(cls, section: dict[str, Any], **flags: Any) -> IngestConfig:
        """Defaults, overridden by the ``[synth]`` section, overridden by non-None flags."""
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in section.items():
            if key in known:
                values[key] = value
        values.update({k: v for k, v in flags.items() if v is not None and k in known})
        try:
            config = replace(cls(), **{k: type(getattr(cls(), k))(v) for k, v in values.items()})
        except (TypeError, ValueError) as e:
            raise IngestError(f"invalid ingest setting: {e}") from e
        return config

    @classmethod
    def help_items(cls) -> list[tuple[str, Any, str]]:
        """(name, default, help) of every setting, for the CLI."""
        default = cls()
        return [(f.name, getattr(default, f.name), f.metadata.get("help", "")) for f in fields(cls)]
