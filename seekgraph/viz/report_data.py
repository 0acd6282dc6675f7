"""What the report's sections read: plain rows of the `seekgraph/cypher/report/` queries (server
notifications off: a partial pipeline's labels may not exist yet), the filter's thresholds, the
published WebShaper sample, and the `Section` each one fills."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import neo4j

from seekgraph.graphdb import cypher
from seekgraph.graphdb.stages import last_notes

# The published WebShaper sample beside a checkout (`../shared/data`), relative to where the
# command runs; `[report] published` or $SEEKGRAPH_WEBSHAPER_500 name another file.
PUBLISHED_KP = Path("..") / "shared" / "data" / "webshaper" / "webshaper.500.jsonl"


@dataclass
class Section:
    title: str
    text: str
    image: str = ""  # base64 PNG; empty when there was nothing to draw
    table: tuple[list[str], list[list[str]]] | None = None  # headers, rows of escaped HTML


def published_triple_counts(path: Path | None = None) -> list[int] | None:
    """Triples per task in the published WebShaper 500 (None when the file is absent)."""
    source = path or Path(os.environ.get("SEEKGRAPH_WEBSHAPER_500", str(PUBLISHED_KP)))
    if not source.is_file():
        return None
    counts = []
    with source.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                counts.append(len(json.loads(line).get("formalization") or []))
    return counts


def thresholds(driver: neo4j.Driver, database: str | None) -> tuple[float, float]:
    """ISR/ISE thresholds of the latest filter run, else the filter's defaults."""
    from seekgraph.agent.config import FilterConfig

    notes = last_notes(driver, "filter", database)
    default = FilterConfig()
    return float(notes.get("alpha", default.alpha)), float(notes.get("beta", default.beta))


def read_rows(
    driver: neo4j.Driver, name: str, database: str | None, **params: Any
) -> list[dict[str, Any]]:
    """A report query's rows (`cypher.read_quietly`: labels of later stages may not exist yet)."""
    return cypher.read_quietly(driver, name, database=database, **params)


def variant_order(rows: list[dict[str, Any]]) -> list[str]:
    order = {"basic": 0, "union": 1, "reverse-union": 2, "kp": 3}
    return sorted({str(r["variant"] or "?") for r in rows}, key=lambda v: (order.get(v, 9), v))
