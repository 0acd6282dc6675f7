"""A first load through `neo4j-admin database import`: nodes and relationships as CSV files.

The import tool writes the store files directly (tens of thousands of rows per second on two
cores, several times the fastest Bolt loader), but only into a database that is stopped, and it
replaces what is there. So it is for a first load of an empty graph; everything after it goes
through Cypher.

The caller holds the graph in memory as `NodeSet`s and `RelSet`s. Each set is written as one
or more CSV files, one per *shape* (the properties present and their types), so a property that
is absent on some nodes stays absent (the tool would otherwise need an empty field, which it
cannot tell from an empty string) and every column has one type. Arrays use the unit separator
(U+001F), which ingest removes from all text, as their delimiter.
"""

from __future__ import annotations

import csv
import os
import subprocess
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphdb.errors import ServerError
from graphdb.settings import ServerSettings

ARRAY_DELIMITER = "\x1f"
_TYPES = {bool: "boolean", int: "long", float: "double", str: "string"}


@dataclass
class NodeSet:
    """Nodes of one label, keyed by their key property (`key`), each a dict of properties."""

    label: str
    key: str
    nodes: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass
class RelSet:
    """Relationships of one type between two labels: (start key, end key, properties)."""

    type: str
    start: str
    end: str
    rels: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)


def _kind(name: str, value: Any) -> str:
    """The import tool's type of one value (``string[]`` for a list of strings)."""
    if isinstance(value, list):
        if not value or not all(isinstance(v, str) for v in value):
            raise ServerError(f"bulk import: property {name!r} is an empty or non-string list")
        return "string[]"
    kind = _TYPES.get(type(value))
    if kind is None:
        raise ServerError(f"bulk import: property {name!r} has a {type(value).__name__} value")
    return kind


def _shape(props: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((k, _kind(k, v)) for k, v in props.items() if v is not None))


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ARRAY_DELIMITER.join(value)
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _write(path: Path, header: list[str], rows: Iterable[list[str]]) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, quoting=csv.QUOTE_ALL)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def write_csv(
    folder: Path, node_sets: Iterable[NodeSet], rel_sets: Iterable[RelSet]
) -> tuple[list[Path], list[Path]]:
    """The CSV files of the graph in `folder`: (node files, relationship files)."""
    folder.mkdir(parents=True, exist_ok=True)
    node_files: list[Path] = []
    for ns in node_sets:
        shapes: dict[tuple[tuple[str, str], ...], list[dict[str, Any]]] = defaultdict(list)
        for key, props in ns.nodes.items():
            shapes[_shape({k: v for k, v in props.items() if k != ns.key})].append(
                {**props, ns.key: key}
            )
        for i, (shape, nodes) in enumerate(sorted(shapes.items())):
            header = [f"{ns.key}:ID({ns.label})", *(f"{k}:{t}" for k, t in shape), ":LABEL"]
            rows = ([n[ns.key], *(_cell(n[k]) for k, _ in shape), ns.label] for n in nodes)
            node_files.append(_write(folder / f"nodes-{ns.label}-{i}.csv", header, rows))
    rel_files: list[Path] = []
    for rs in rel_sets:
        by_shape: dict[tuple[tuple[str, str], ...], list[tuple[str, str, dict[str, Any]]]] = (
            defaultdict(list)
        )
        for start, end, props in rs.rels:
            by_shape[_shape(props)].append((start, end, props))
        for i, (shape, rels) in enumerate(sorted(by_shape.items())):
            header = [
                f":START_ID({rs.start})",
                f":END_ID({rs.end})",
                *(f"{k}:{t}" for k, t in shape),
                ":TYPE",
            ]
            rows = ([s, e, *(_cell(p[k]) for k, _ in shape), rs.type] for s, e, p in rels)
            name = f"rels-{rs.type}-{rs.start}-{rs.end}-{i}.csv"
            rel_files.append(_write(folder / name, header, rows))
    return node_files, rel_files


def import_full(
    settings: ServerSettings,
    node_files: list[Path],
    rel_files: list[Path],
    *,
    database: str = "neo4j",
    threads: int | None = None,
    id_type: str = "string",
    multiline: bool = True,
    report_file: Path | None = None,
) -> str:
    """Run `neo4j-admin database import full` into the (stopped) server's `database`,
    replacing it; returns the tool's output. A failure is a `ServerError` with its last lines.

    `multiline`: values may hold newlines (slower: the tool cannot split files to parse)."""
    home = settings.home
    cmd = [
        "java",
        "-cp",
        f"{home / 'lib'}/*",
        "org.neo4j.cli.AdminTool",
        "database",
        "import",
        "full",
        *(f"--nodes={path}" for path in node_files),
        *(f"--relationships={path}" for path in rel_files),
        "--overwrite-destination=true",
        f"--threads={threads or os.cpu_count() or 2}",
        f"--multiline-fields={str(multiline).lower()}",
        "--array-delimiter=U+001F",
        f"--id-type={id_type}",
        f"--report-file={report_file or home / 'logs' / 'import.report'}",
        database,
    ]
    env = {
        **os.environ,
        "NEO4J_HOME": str(home),
        "NEO4J_CONF": str(home / "conf"),
    }
    try:
        result = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    except FileNotFoundError as e:
        raise ServerError("bulk import needs `java` on PATH", hint="install Java 17") from e
    output = result.stdout + result.stderr
    if result.returncode != 0:
        last = " | ".join(line for line in output.splitlines()[-6:] if line.strip())
        raise ServerError(
            f"neo4j-admin database import failed (exit {result.returncode}): {last[-600:]}",
            hint=f"the whole output is in {home / 'logs'}",
        )
    return output
