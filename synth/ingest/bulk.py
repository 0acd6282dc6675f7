"""`seekgraph db load`: the first load of an empty graph through the import tool.

Ingest runs exactly as always (the same readers, cleaning, key columns, rows and rejections),
but its writes go to `BulkGraph`, which applies each ingest query's MERGE and SET rules to a
graph in memory, in the same order as the server would. That graph is written as CSV files and
imported with `neo4j-admin database import` while the server is stopped; then the server starts
again, the schema (constraints, indexes) is built, and the stage's report and rejections are
stored as after any ingest. A test compares the graph with one built by `seekgraph ingest`.

A later `seekgraph ingest` of the same data skips every record (the content hashes are there);
changes and additions go through the ordinary incremental path. Memory: the whole graph of the
input is held in Python while it is built (measured in `bench/bench_ingest.py`).
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import neo4j

from graphdb import cypher, server
from graphdb.bulk_import import NodeSet, RelSet, import_full, write_csv
from graphdb.errors import StageError
from graphdb.schema import apply_schema
from graphdb.settings import ServerSettings
from graphdb.stages import StageContext, StageReport
from synth.ingest.config import IngestConfig
from synth.ingest.stage import run_ingest

KEYS = {
    "Table": "table_id",
    "Column": "column_id",
    "Header": "key",
    "Row": "row_id",
    "Entity": "entity_id",
    "Value": "value_id",
    "Page": "page_id",
}
Node = tuple[str, str]  # (label, key)


class BulkGraph:
    """Ingest's graph in memory: nodes by label and key, relationships by their MERGE pattern.

    Each ``write`` name is one file of ``cypher/ingest/``; its method below follows that file
    clause by clause (a property set to null is removed, as in Cypher)."""

    def __init__(self) -> None:
        self.nodes: dict[str, dict[str, dict[str, Any]]] = {label: {} for label in KEYS}
        # (type, start, end, merge properties) -> all properties
        self.rels: dict[tuple[str, Node, Node, tuple[Any, ...]], dict[str, Any]] = {}
        self._writes: dict[str, Callable[[dict[str, Any]], None]] = {
            "ingest/merge_columns": self._merge_column,
            "ingest/merge_rows": self._merge_row,
            "ingest/merge_entity_cells": self._merge_entity_cell,
            "ingest/merge_value_cells": self._merge_value_cell,
            "ingest/merge_entity_facts": lambda r: self._merge_fact(r, "Entity"),
            "ingest/merge_value_facts": lambda r: self._merge_fact(r, "Value"),
            "ingest/merge_table_pages": self._merge_table_page,
            "ingest/merge_tables": self._merge_table,
            "ingest/merge_pages": self._merge_page,
            "ingest/merge_page_links": self._merge_page_links,
            "ingest/delete_table_parts": self._delete_table_parts,
        }

    # --- the writer protocol (synth.ingest.writers.GraphWriter) ------------------------------
    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        if name == "ingest/find_tables":
            tables = self.nodes["Table"]
            return [
                {
                    "table_id": i,
                    "content_hash": tables[i].get("content_hash"),
                    "status": tables[i].get("status"),
                    "origin": tables[i].get("origin"),
                }
                for i in params["ids"]
                if i in tables
            ]
        if name == "ingest/find_pages":
            pages = self.nodes["Page"]
            return [
                {"page_id": i, "content_hash": pages[i]["content_hash"]}
                for i in params["ids"]
                if pages.get(i, {}).get("content_hash") is not None
            ]
        raise StageError(f"bulk load: no in-memory version of the read {name!r}")

    def write(self, name: str, rows: list[dict[str, Any]], *, batch_size: int) -> None:
        if not rows:
            return
        apply = self._writes.get(name)
        if apply is None:
            raise StageError(f"bulk load: no in-memory version of the write {name!r}")
        for row in rows:
            apply(row)

    def save_rejections(self, report: StageReport) -> None:
        """Nothing yet: the rejections are stored with the report, after the import."""

    # --- helpers ---------------------------------------------------------------------------
    def _merge(self, label: str, key: str) -> tuple[dict[str, Any], bool]:
        """The node's properties, and whether it was created now (MERGE)."""
        nodes = self.nodes[label]
        created = key not in nodes
        if created:
            nodes[key] = {}
        return nodes[key], created

    def _exists(self, label: str, key: str) -> bool:
        return key in self.nodes[label]

    def _rel(self, type_: str, start: Node, end: Node, **merge: Any) -> dict[str, Any]:
        pattern = (type_, start, end, tuple(sorted(merge.items())))
        if pattern not in self.rels:
            self.rels[pattern] = dict(merge)
        return self.rels[pattern]

    @staticmethod
    def _set(props: dict[str, Any], **values: Any) -> None:
        for name, value in values.items():
            if value is None:
                props.pop(name, None)
            else:
                props[name] = value

    # --- one method per Cypher file --------------------------------------------------------
    def _merge_column(self, row: dict[str, Any]) -> None:
        self._merge("Table", row["table_id"])
        column, _ = self._merge("Column", row["column_id"])
        self._set(
            column,
            table_id=row["table_id"],
            index=row["index"],
            header=row["header"],
            role=row["role"],
            link_ratio=row["link_ratio"],
            uniqueness=row["uniqueness"],
            key_score=row["key_score"],
            relation=row["relation"],
        )
        self._rel("HAS_COLUMN", ("Table", row["table_id"]), ("Column", row["column_id"]))
        if row["header_key"] != "":
            header, created = self._merge("Header", row["header_key"])
            if created:
                self._set(header, text=row["header"])
            self._rel("HAS_HEADER", ("Column", row["column_id"]), ("Header", row["header_key"]))

    def _merge_row(self, row: dict[str, Any]) -> None:
        if not self._exists("Table", row["table_id"]):
            return
        node, _ = self._merge("Row", row["row_id"])
        self._set(node, table_id=row["table_id"], index=row["index"])
        self._rel("HAS_ROW", ("Table", row["table_id"]), ("Row", row["row_id"]))
        for anchor in row["anchor_ids"]:
            self._merge("Entity", anchor)
            self._rel("ANCHOR", ("Row", row["row_id"]), ("Entity", anchor))

    def _merge_entity_cell(self, row: dict[str, Any]) -> None:
        if not self._exists("Row", row["row_id"]):
            return
        entity, created = self._merge("Entity", row["entity_id"])
        if created:
            self._set(entity, name=row["name"], linked=row["linked"])
        aliases = entity.get("aliases") or []
        alias = row["alias"]
        keep = alias is None or alias in aliases or len(aliases) >= 10
        self._set(
            entity,
            name=row["name"] if row["linked"] else entity.get("name", row["name"]),
            linked=entity.get("linked", row["linked"]),
            aliases=entity.get("aliases") if keep else [*aliases, alias],
        )
        cell = self._rel(
            "HAS_CELL", ("Row", row["row_id"]), ("Entity", row["entity_id"]), column=row["column"]
        )
        self._set(cell, text=row["text"])

    def _merge_value_cell(self, row: dict[str, Any]) -> None:
        if not self._exists("Row", row["row_id"]):
            return
        value, created = self._merge("Value", row["value_id"])
        if created:
            self._set(value, kind=row["kind"], text=row["text"], normalized=row["normalized"])
        cell = self._rel(
            "HAS_CELL", ("Row", row["row_id"]), ("Value", row["value_id"]), column=row["column"]
        )
        self._set(cell, text=row["text"])

    def _merge_fact(self, row: dict[str, Any], target_label: str) -> None:
        if not (
            self._exists("Entity", row["anchor_id"])
            and self._exists(target_label, row["target_id"])
        ):
            return
        fact = self._rel(
            "FACT",
            ("Entity", row["anchor_id"]),
            (target_label, row["target_id"]),
            table_id=row["table_id"],
            row=row["row"],
            column=row["column"],
        )
        self._set(fact, relation=row["relation"], text=row["text"])

    def _merge_table_page(self, row: dict[str, Any]) -> None:
        if not self._exists("Table", row["table_id"]):
            return
        page, _ = self._merge("Page", row["page_id"])
        self._set(page, title=row["title"], text=row["text"], url=row["url"], source="table")
        self._rel("RENDERS", ("Page", row["page_id"]), ("Table", row["table_id"]))
        for entity_id in row["mentions"]:
            self._merge("Entity", entity_id)
            self._rel("MENTIONS", ("Page", row["page_id"]), ("Entity", entity_id))

    def _merge_table(self, row: dict[str, Any]) -> None:
        table, _ = self._merge("Table", row["table_id"])
        self._set(table, **{k: v for k, v in row.items() if k != "table_id"})

    def _merge_page(self, row: dict[str, Any]) -> None:
        page, _ = self._merge("Page", row["page_id"])
        self._set(
            page,
            title=row["title"],
            text=row["text"],
            source=row["source"],
            url=row["url"],
            year=row["year"],
        )
        entity, _ = self._merge("Entity", row["page_id"])
        self._set(entity, name=row["name"], linked=True)
        self._rel("ABOUT", ("Page", row["page_id"]), ("Entity", row["page_id"]))

    def _merge_page_links(self, row: dict[str, Any]) -> None:
        if not self._exists("Page", row["page_id"]):
            return
        page = ("Page", row["page_id"])
        for link in row["links"]:
            entity, created = self._merge("Entity", link["id"])
            if created:
                self._set(entity, name=link["name"], linked=True)
            self._rel("MENTIONS", page, ("Entity", link["id"]))
            if self._exists("Page", link["id"]):
                self._rel("LINKS_TO", page, ("Page", link["id"]))
        self._set(self.nodes["Page"][row["page_id"]], content_hash=row["content_hash"])

    def _delete_table_parts(self, row: dict[str, Any]) -> None:
        """A table read again with other content (from another file of the same load)."""
        table_id = row["table_id"]
        if not self._exists("Table", table_id):
            return
        table = ("Table", table_id)
        rows = {end for (t, start, end, _) in self.rels if t == "HAS_ROW" and start == table}
        anchors = {end for (t, start, end, _) in self.rels if t == "ANCHOR" and start in rows}
        columns = {end for (t, start, end, _) in self.rels if t == "HAS_COLUMN" and start == table}
        pages = {start for (t, start, end, _) in self.rels if t == "RENDERS" and end == table}
        gone = rows | columns | pages
        for pattern in list(self.rels):
            type_, start, end, merge = pattern
            stale_fact = type_ == "FACT" and start in anchors and ("table_id", table_id) in merge
            if stale_fact or start in gone or end in gone:
                del self.rels[pattern]
        for label, key in gone:
            del self.nodes[label][key]
        self.nodes["Table"][table_id].pop("content_hash", None)

    # --- export ------------------------------------------------------------------------------
    def sets(self) -> tuple[list[NodeSet], list[RelSet]]:
        """The graph as the import tool's node and relationship sets."""
        node_sets = [NodeSet(label, KEYS[label], nodes) for label, nodes in self.nodes.items()]
        rel_sets: dict[tuple[str, str, str], RelSet] = {}
        for (type_, (sl, sk), (el, ek), _), props in self.rels.items():
            rs = rel_sets.setdefault((type_, sl, el), RelSet(type_, sl, el))
            rs.rels.append((sk, ek, props))
        return node_sets, list(rel_sets.values())

    def counts(self) -> tuple[int, int]:
        return sum(len(n) for n in self.nodes.values()), len(self.rels)


def _graph_is_empty(driver: neo4j.Driver, database: str | None) -> bool:
    rows = cypher.read(driver, "ingest/count_data_nodes", database=database)
    return int(rows[0]["n"]) == 0


def bulk_load(
    ctx: StageContext,
    config: IngestConfig,
    settings: ServerSettings,
    *,
    reconnect: Callable[[], neo4j.Driver],
    replace: bool = False,
    work_dir: Path | None = None,
) -> tuple[StageReport, neo4j.Driver]:
    """Ingest `config`'s data into the empty graph of the managed server `settings` through the
    import tool (`replace`: even when the graph holds data, which is then lost).

    The import gives the database a new transaction history, so drivers that ran queries
    before it hold bookmarks it never reaches: `reconnect` closes the caller's driver and opens
    a new one. Returns the ingest report (the caller stores it, as for any stage) and that
    driver."""
    if not replace and not _graph_is_empty(ctx.driver, ctx.database):
        raise StageError(
            "the graph is not empty: the bulk load replaces the whole database",
            hint="use `seekgraph ingest` to add data, or `seekgraph db load --replace` to "
            "start over",
        )
    started = time.perf_counter()
    graph = BulkGraph()
    report = run_ingest(ctx, config, writer=graph)
    built = time.perf_counter()
    n_nodes, n_rels = graph.counts()
    ctx.echo(f"bulk load: {n_nodes:,} nodes, {n_rels:,} relationships built in memory")
    folder = Path(tempfile.mkdtemp(prefix="seekgraph-import-", dir=work_dir))
    try:
        node_files, rel_files = write_csv(folder, *graph.sets())
        written = time.perf_counter()
        del graph
        server.stop(settings)
        import_full(settings, node_files, rel_files, database=ctx.database or "neo4j")
        imported = time.perf_counter()
        server.start(settings)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    driver = reconnect()
    apply_schema(driver, ctx.database)
    done = time.perf_counter()
    report.seconds = done - started
    report.notes.update(
        {
            "bulk": True,
            "nodes imported": n_nodes,
            "relationships imported": n_rels,
            "seconds: build in memory": round(built - started, 2),
            "seconds: write CSV": round(written - built, 2),
            "seconds: import tool": round(imported - written, 2),
            "seconds: restart and schema": round(done - imported, 2),
        }
    )
    ctx.echo(
        f"bulk load: imported in {imported - written:.1f}s "
        f"({(n_nodes + n_rels) / max(imported - written, 1e-9):,.0f} rows/s), "
        f"{done - started:.1f}s in all"
    )
    return report, driver
