"""Where a record was read (``file:line``, whatever its content), and the ingest rejections at
those places: a record kept now at a place where an earlier version was rejected clears that
rejection, so `db rejects` never lists a record that is in the graph."""

from __future__ import annotations

import neo4j

from seekgraph.graphdb import cypher


def location(record_id: str) -> str:
    """``file:line`` of a record id ``file:line@digest`` (the place, whatever its content)."""
    return record_id.split("@")[0]


def rejected_locations(driver: neo4j.Driver, database: str | None) -> set[str]:
    """The places (``file:line``) of the ingest stage's current rejections."""
    rows = cypher.read(driver, "ingest/find_rejected_records", database=database)
    return {location(r["record_id"]) for r in rows}
