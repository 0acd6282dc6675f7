"""Sources and versions: a data folder is a source with a stable name, a table's identity is its
place in a source, and its content a version.

A source's name is given (``seekgraph ingest --source NAME``) or derived from the folder's name
(the packaged data: ``default``; files named one by one: their folder's). The graph records the
folder each source was read from (``(:Source {name, location})``), so a second folder that
would take a name already taken is refused with one line instead of mixing two corpora's
tables; a name given explicitly says "this is that source" (a folder that moved).

A table read again with other content is a new version of the same table (`VersionChange`):
the old one is kept as a ``(:TableVersion)`` (what it said, its digest and place: provenance,
never searched, never read by synthesis), and everything built on the table goes stale
(``cypher/ingest/mark_derived_stale.cypher``: trees, bicliques, topic groups, tasks, rollouts),
to be rebuilt by the stages that made it. A table no longer in its source (its file gone, or
its record gone from the file) is retired on request (`retire_missing`): its rows, facts and
page go, the node stays ``retired``, and the work built on it stays stale.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import neo4j

from seekgraph.graphdb import cypher
from seekgraph.graphdb.errors import StageError
from seekgraph.graphdb.stages import StageReport
from seekgraph.synth.ingest.writers import GraphWriter

DEFAULT_SOURCE = "default"  # the packaged data set's name as a source


@dataclass(frozen=True)
class Source:
    """A data folder under a stable name; `given`: the name was given, not derived."""

    name: str
    location: str
    given: bool = False


def source_of(folder: Path, name: str = "", *, default: bool = False) -> Source:
    """The source a folder is: the given `name`, else the folder's own name (``default`` for
    the packaged data, whose folder moves with every install of seekgraph: it is never taken
    for another folder)."""
    derived = DEFAULT_SOURCE if default else folder.resolve().name
    chosen = name.strip() or derived
    if "/" in chosen or not chosen:
        raise StageError(f"source name {chosen!r} must be a non-empty name without '/'")
    return Source(chosen, str(folder.resolve()), given=bool(name.strip()) or default)


def claim_sources(driver: neo4j.Driver, database: str | None, sources: list[Source]) -> None:
    """Refuse, with one line, a folder that would take a source name another folder has.

    Two folders with the same file names give two tables each only when their sources differ;
    under one name, the second folder's files would replace the first's as new versions."""
    known = {
        r["name"]: r["location"]
        for r in cypher.read(
            driver, "ingest/find_sources", database=database, names=[s.name for s in sources]
        )
    }
    for source in sources:
        before = known.get(source.name)
        if before and before != source.location and not source.given:
            raise StageError(
                f"source {source.name!r} is the folder {before}, not {source.location}",
                hint=f"name this folder's source with --source NAME, or pass --source "
                f"{source.name} to say the folder moved",
            )


def record_sources(writer: GraphWriter, sources: list[Source]) -> None:
    """The sources and the folder each was read from (after their tables are written)."""
    rows = [{"name": s.name, "location": s.location} for s in sources]
    writer.write("ingest/merge_sources", rows, batch_size=len(rows) or 1)


@dataclass(frozen=True)
class VersionChange:
    """A table whose rows are written again: `before` is the version in the graph (None: not
    known), `after` the one read now; the same version means other cleaning settings.
    `repeated`: the table was read earlier in this run (another file holds the same id), so
    the version it replaces was never served and is not kept."""

    table_id: str
    before: str | None
    after: str
    was_retired: bool = False
    repeated: bool = False

    @classmethod
    def of(cls, before: dict[str, Any], after: str) -> VersionChange:
        """From a table's row of ``ingest/find_tables`` (a graph written before versions were
        recorded has the version only as the first part of the content hash)."""
        version = before["version"] or (before["content_hash"] or "").split("-")[0] or None
        return cls(before["table_id"], version, after, before["status"] == "retired")

    @property
    def new_version(self) -> bool:
        return self.before is not None and self.before != self.after

    @property
    def reason(self) -> str:
        if self.repeated:
            return f"table {self.table_id} was read again, from another file of the same run"
        if self.was_retired:
            return f"table {self.table_id} is back in its source (version {self.after})"
        if self.new_version:
            return f"table {self.table_id} changed (version {self.before} -> {self.after})"
        return f"table {self.table_id} was read again under other cleaning settings"


def supersede(writer: GraphWriter, changes: list[VersionChange]) -> None:
    """Before the changed tables' rows go: keep each replaced version, mark what was built on
    the tables stale (both idempotent, so a killed run does them again harmlessly)."""
    versions = [
        {"table_id": c.table_id, "version": c.before, "superseded_by": c.after}
        for c in changes
        if c.new_version
    ]
    writer.write("ingest/record_table_versions", versions, batch_size=50)
    stale = [{"table_id": c.table_id, "reason": c.reason} for c in changes]
    writer.write("ingest/mark_derived_stale", stale, batch_size=10)


@dataclass
class SourceReading:
    """What one run read of a source: the tables it saw, and the files that held a record it
    could not read (their tables are never taken for missing: the record may be one of them)."""

    source: Source
    seen: set[str]
    unsure_paths: set[str]


def missing_tables(writer: GraphWriter, reading: SourceReading) -> list[dict[str, Any]]:
    """Tables of the source, kept or rejected, that this run did not read."""
    rows = writer.read("ingest/find_source_tables", source=reading.source.name)
    return [
        r
        for r in rows
        if r["table_id"] not in reading.seen and r["path"] not in reading.unsure_paths
    ]


def retire_missing(
    writer: GraphWriter,
    reading: SourceReading,
    report: StageReport,
    *,
    retire: bool,
) -> None:
    """Tables gone from the source: retired when `retire` (``--retire-missing``), else only
    counted in the report, so a user sees what a retirement would take away."""
    missing = missing_tables(writer, reading)
    if not missing:
        return
    if not retire:
        report.notes["tables missing from the source (kept; --retire-missing retires them)"] = len(
            missing
        )
        return
    rows = [
        {
            "table_id": r["table_id"],
            "reason": f"table {r['table_id']} is no longer in source {reading.source.name!r}",
            "detail": _where_missing(reading.source, r["path"]),
        }
        for r in missing
    ]
    writer.write("ingest/mark_derived_stale", rows, batch_size=10)
    writer.write("ingest/delete_table_parts", rows, batch_size=10)
    writer.write("ingest/retire_tables", rows, batch_size=500)
    report.notes["tables retired (missing from the source)"] = len(rows)


def _where_missing(source: Source, path: str | None) -> str:
    if not path:
        return f"not read from {source.location}"
    if (Path(source.location) / path).exists():
        return f"no longer in {path} of {source.location}"
    return f"{path} is gone from {source.location}"
