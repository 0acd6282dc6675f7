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

`CsvParts` writes the files batch by batch, so the caller holds only what later batches may
still change. Each row carries two columns the tool ignores, the record that owns it and its
batch, so that rows of a record written again in a later batch are dropped when the files close.
"""

from __future__ import annotations

import csv
import os
import subprocess
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import IO, Any

from seekgraph.graphdb.errors import ServerError
from seekgraph.graphdb.settings import ServerSettings

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


Row = tuple[str, ...]


@dataclass
class _Part:
    """One CSV file of one shape: its writer and the batches it holds rows of."""

    path: Path
    handle: IO[str]
    writer: Any
    batches: set[int] = field(default_factory=set)


@dataclass
class Fixups:
    """What `CsvParts.close` drops: rows of records that a later batch wrote again.

    `stale`: every row of (owner, batch); `stale_nodes`: the node (label, key) written in that
    batch; `distinct`: owners whose relationships, over all their batches, are kept once each
    (a MERGE of the same relationship in two batches); `batches`: those owners' batches."""

    stale: set[tuple[str, int]] = field(default_factory=set)
    stale_nodes: set[tuple[str, str, int]] = field(default_factory=set)
    distinct: set[str] = field(default_factory=set)
    batches: set[int] = field(default_factory=set)

    def dirty(self) -> set[int]:
        """The batches a file must hold for it to be filtered."""
        return {b for _, b in self.stale} | {b for _, _, b in self.stale_nodes} | self.batches


class CsvParts:
    """The import tool's CSV files, written batch by batch: one file per label (or type) and
    shape; ``close`` drops the rows that `Fixups` names and returns (node files, rel files)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self._nodes: dict[tuple[str, tuple[tuple[str, str], ...]], _Part] = {}
        self._rels: dict[tuple[str, str, str, tuple[tuple[str, str], ...]], _Part] = {}
        self.dropped = [0, 0]  # node and relationship rows that `close` filtered out

    def _open(self, parts: dict[Any, _Part], ident: Any, name: str, header: list[str]) -> _Part:
        """A new file of one shape, its header written."""
        path = self.folder / f"{name}-{len(parts)}.csv"
        handle = open(path, "w", newline="", encoding="utf-8")  # noqa: SIM115 (closed in close)
        writer = csv.writer(handle, quoting=csv.QUOTE_ALL)
        writer.writerow([*header, "owner:IGNORE", "batch:IGNORE"])
        part = parts[ident] = _Part(path, handle, writer)
        return part

    def add_nodes(
        self, label: str, key: str, nodes: Iterable[tuple[str, Mapping[str, Any], str]], batch: int
    ) -> None:
        """Nodes of `label` as (key value, properties, owner), written now."""
        mark = str(batch)
        for value, props, owner in nodes:
            shape = _shape({k: v for k, v in props.items() if k != key})
            ident = (label, shape)
            part = self._nodes.get(ident) or self._open(
                self._nodes,
                ident,
                f"nodes-{label}",
                [f"{key}:ID({label})", *(f"{k}:{t}" for k, t in shape), ":LABEL"],
            )
            part.batches.add(batch)
            part.writer.writerow([value, *(_cell(props[k]) for k, _ in shape), label, owner, mark])

    def add_rels(
        self,
        type_: str,
        start: str,
        end: str,
        rels: Iterable[tuple[str, str, Mapping[str, Any], str]],
        batch: int,
    ) -> None:
        """Relationships `type_` from `start` to `end` nodes as (start key, end key, properties,
        owner), written now."""
        mark = str(batch)
        for s, e, props, owner in rels:
            shape = _shape(props)
            ident = (type_, start, end, shape)
            part = self._rels.get(ident) or self._open(
                self._rels,
                ident,
                f"rels-{type_}-{start}-{end}",
                [
                    f":START_ID({start})",
                    f":END_ID({end})",
                    *(f"{k}:{t}" for k, t in shape),
                    ":TYPE",
                ],
            )
            part.batches.add(batch)
            part.writer.writerow([s, e, *(_cell(props[k]) for k, _ in shape), type_, owner, mark])

    def close(self, fixups: Fixups | None = None) -> tuple[list[Path], list[Path]]:
        """Close the files, filter those that hold a dirty batch; (node files, rel files)."""
        for part in [*self._nodes.values(), *self._rels.values()]:
            part.handle.close()
        dirty = fixups.dirty() if fixups else set()
        if fixups and dirty:
            for (label, _), part in self._nodes.items():
                if part.batches & dirty:
                    keep = partial(_keep_node, label=label, fixups=fixups)
                    self.dropped[0] += _filter(part.path, keep)
            for part in self._rels.values():
                if part.batches & dirty:
                    keep = partial(_keep_rel, fixups=fixups, seen=set())
                    self.dropped[1] += _filter(part.path, keep)
        return [p.path for p in self._nodes.values()], [p.path for p in self._rels.values()]


def _keep_node(row: list[str], label: str, fixups: Fixups) -> bool:
    owner, batch = row[-2], int(row[-1])
    return (owner, batch) not in fixups.stale and (label, row[0], batch) not in fixups.stale_nodes


def _keep_rel(row: list[str], fixups: Fixups, seen: set[Row]) -> bool:
    owner, batch = row[-2], int(row[-1])
    if (owner, batch) in fixups.stale:
        return False
    if owner in fixups.distinct:
        merged = tuple(row[:-1])
        if merged in seen:
            return False
        seen.add(merged)
    return True


def _filter(path: Path, keep: Callable[[list[str]], bool]) -> int:
    """Rewrite the CSV file at `path` with the data rows that `keep` accepts; rows dropped."""
    kept = path.with_suffix(".kept")
    dropped = 0
    with (
        open(path, newline="", encoding="utf-8") as source,
        open(kept, "w", newline="", encoding="utf-8") as target,
    ):
        reader = csv.reader(source)
        writer = csv.writer(target, quoting=csv.QUOTE_ALL)
        writer.writerow(next(reader))
        for row in reader:
            if keep(row):
                writer.writerow(row)
            else:
                dropped += 1
    kept.replace(path)
    return dropped


def write_csv(
    folder: Path, node_sets: Iterable[NodeSet], rel_sets: Iterable[RelSet]
) -> tuple[list[Path], list[Path]]:
    """The CSV files of a graph held whole in memory, in `folder`: (node files, rel files)."""
    parts = CsvParts(folder)
    for ns in node_sets:
        parts.add_nodes(ns.label, ns.key, ((k, p, "") for k, p in ns.nodes.items()), 0)
    for rs in rel_sets:
        parts.add_rels(rs.type, rs.start, rs.end, ((s, e, p, "") for s, e, p in rs.rels), 0)
    return parts.close()


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
