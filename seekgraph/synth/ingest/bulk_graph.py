"""The in-memory graph of a bulk load: ingest's writes applied as on the server, streamed to CSV.

`BulkGraph` is the writer (`seekgraph.synth.ingest.writers.GraphWriter`) that the bulk load
(`seekgraph.synth.ingest.bulk`) hands to ingest in place of the server: one method per ingest
query, the per-table and per-page state that later reads and writes need, and the batches of
CSV rows for `neo4j-admin database import`. It is apart from the load driver because it is the
one part that mirrors the Cypher files of ``seekgraph/cypher/ingest/``: it changes when a query
changes, while the driver (server stop, import, start, schema) changes with the server.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from seekgraph.graphdb.bulk_import import CsvParts, Fixups
from seekgraph.graphdb.errors import StageError
from seekgraph.graphdb.stages import StageReport

KEYS = {
    "Table": "table_id",
    "Column": "column_id",
    "Header": "key",
    "Row": "row_id",
    "Entity": "entity_id",
    "Value": "value_id",
    "Page": "page_id",
    "Source": "name",
}
SHARED = ("Header", "Entity", "Value")  # nodes any record may change: held until the end
Node = tuple[str, str]  # (label, key)
RelKey = tuple[str, Node, Node, tuple[Any, ...]]  # (type, start, end, merge properties)


def _table_owner(table_id: str) -> str:
    return "T:" + table_id


def _page_owner(page_id: str) -> str:
    return "P:" + page_id


@dataclass
class _TableState:
    """What later reads and writes need of a flushed table (`find_tables`, a rewrite)."""

    content_hash: str | None
    status: str | None
    origin: str | None
    batch: int
    page: str | None = None  # the page that renders it
    version: str | None = None


@dataclass
class _PageState:
    """What later reads and writes need of a flushed page (`find_pages`, a merge again)."""

    batch: int  # of its node
    content_hash: str | None = None  # once its links are written, as on the server
    links_batch: int | None = None


class BulkGraph:
    """Ingest's graph, applied in memory and streamed to CSV files (`CsvParts`) batch by batch.

    Each ``write`` name is one file of ``seekgraph/cypher/ingest/``; its method below follows that file
    clause by clause (a property set to null is removed, as in Cypher). Every table, column,
    row and page belongs to one record (a table, or a passage page), and so does every
    relationship; a batch's records go to the files when it ends (``flush``). Only the nodes
    that any record may change (headers, entities, values) stay in memory, with a few fields
    per table and page (content hash, batch) that later reads and writes need.

    A record written again after its batch was flushed (a table read again with other
    content, a page id in two files) has its earlier rows dropped when the files close, as
    `delete_table_parts` and `MERGE` do on the server."""

    def __init__(self, folder: Path) -> None:
        self.parts = CsvParts(folder)
        self.batch = 0
        self.shared: dict[str, dict[str, dict[str, Any]]] = {label: {} for label in SHARED}
        # this batch's tables, columns, rows and pages, with the record that owns each
        self.local: dict[str, dict[str, dict[str, Any]]] = {
            label: {} for label in KEYS if label not in SHARED
        }
        self.owners: dict[Node, str] = {}
        self.rels: dict[RelKey, tuple[dict[str, Any], str]] = {}
        self.tables: dict[str, _TableState] = {}  # flushed tables
        self.pages: dict[str, _PageState] = {}  # flushed pages
        self.fixups = Fixups()
        self.n_nodes = 0
        self.n_rels = 0
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
            "ingest/record_table_versions": self._nothing_served_yet,
            "ingest/mark_derived_stale": self._nothing_served_yet,
            "ingest/merge_sources": self._merge_source,
        }
        # after these writes a batch of records is complete
        # (ingest writes page links a slice at a time: `seekgraph.synth.ingest.pages.LINK_SLICE`)
        self._flush_after = {
            "ingest/merge_tables",
            "ingest/merge_pages",
            "ingest/merge_page_links",
        }

    # --- the writer protocol (synth.ingest.writers.GraphWriter) ------------------------------
    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        if name == "ingest/find_tables":
            return [
                {
                    "table_id": i,
                    "content_hash": t.content_hash,
                    "status": t.status,
                    "origin": t.origin,
                    "version": t.version,
                }
                for i in params["ids"]
                if (t := self.tables.get(i)) is not None
            ]
        if name == "ingest/find_source_tables":
            return []  # a first load: no source has tables in the graph yet
        if name == "ingest/find_pages":
            return [
                {"page_id": i, "content_hash": page.content_hash}
                for i in params["ids"]
                if (page := self.pages.get(i)) is not None and page.content_hash is not None
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
        if name in self._flush_after:
            self.flush()

    def save_rejections(self, report: StageReport) -> None:
        """Nothing yet: the rejections are stored with the report, after the import."""

    # --- helpers ---------------------------------------------------------------------------
    def _merge(self, label: str, key: str, owner: str = "") -> tuple[dict[str, Any], bool]:
        """The node's properties, and whether it was created now (MERGE)."""
        nodes = self.shared[label] if label in SHARED else self.local[label]
        if key in nodes:
            return nodes[key], False
        nodes[key] = {}
        if label not in SHARED:
            self.owners[(label, key)] = owner
            self._written_before(label, key, owner)
        return nodes[key], True

    def _written_before(self, label: str, key: str, owner: str) -> None:
        """A table or page node that an earlier batch flushed is merged again: its earlier row
        goes (the whole record, for a table that `delete_table_parts` cleared)."""
        if label == "Table" and key in self.tables:
            earlier = self.tables[key].batch
            if (owner, earlier) not in self.fixups.stale:
                self.fixups.stale_nodes.add((label, key, earlier))
        elif label == "Page" and key in self.pages:
            page = self.pages[key]
            self.fixups.stale_nodes.add((label, key, page.batch))
            # its relationships, then and from now on, are merged with each other
            self.fixups.distinct.add(owner)
            self.fixups.batches.update(
                b for b in (page.batch, page.links_batch, self.batch) if b is not None
            )

    def _exists(self, label: str, key: str) -> bool:
        if label in SHARED:
            return key in self.shared[label]
        if key in self.local[label]:
            return True
        return (label == "Table" and key in self.tables) or (label == "Page" and key in self.pages)

    def _rel(self, type_: str, start: Node, end: Node, owner: str, **merge: Any) -> dict[str, Any]:
        pattern = (type_, start, end, tuple(sorted(merge.items())))
        found = self.rels.get(pattern)
        if found is None:
            found = self.rels[pattern] = (dict(merge), owner)
        return found[0]

    @staticmethod
    def _set(props: dict[str, Any], **values: Any) -> None:
        for name, value in values.items():
            if value is None:
                props.pop(name, None)
            else:
                props[name] = value

    # --- one method per Cypher file --------------------------------------------------------
    def _merge_column(self, row: dict[str, Any]) -> None:
        owner = _table_owner(row["table_id"])
        self._merge("Table", row["table_id"], owner)
        column, _ = self._merge("Column", row["column_id"], owner)
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
        self._rel("HAS_COLUMN", ("Table", row["table_id"]), ("Column", row["column_id"]), owner)
        if row["header_key"] != "":
            header, created = self._merge("Header", row["header_key"])
            if created:
                self._set(header, text=row["header"])
            self._rel(
                "HAS_HEADER", ("Column", row["column_id"]), ("Header", row["header_key"]), owner
            )

    def _merge_row(self, row: dict[str, Any]) -> None:
        if not self._exists("Table", row["table_id"]):
            return
        owner = _table_owner(row["table_id"])
        node, _ = self._merge("Row", row["row_id"], owner)
        self._set(node, table_id=row["table_id"], index=row["index"])
        self._rel("HAS_ROW", ("Table", row["table_id"]), ("Row", row["row_id"]), owner)
        for anchor in row["anchor_ids"]:
            self._merge("Entity", anchor)
            self._rel("ANCHOR", ("Row", row["row_id"]), ("Entity", anchor), owner)

    def _merge_entity_cell(self, row: dict[str, Any]) -> None:
        if not self._exists("Row", row["row_id"]):
            return
        owner = self.owners[("Row", row["row_id"])]
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
            "HAS_CELL",
            ("Row", row["row_id"]),
            ("Entity", row["entity_id"]),
            owner,
            column=row["column"],
        )
        self._set(cell, text=row["text"])

    def _merge_value_cell(self, row: dict[str, Any]) -> None:
        if not self._exists("Row", row["row_id"]):
            return
        owner = self.owners[("Row", row["row_id"])]
        value, created = self._merge("Value", row["value_id"])
        if created:
            self._set(value, kind=row["kind"], text=row["text"], normalized=row["normalized"])
        cell = self._rel(
            "HAS_CELL",
            ("Row", row["row_id"]),
            ("Value", row["value_id"]),
            owner,
            column=row["column"],
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
            _table_owner(row["table_id"]),
            table_id=row["table_id"],
            row=row["row"],
            column=row["column"],
        )
        self._set(fact, relation=row["relation"], text=row["text"])

    def _merge_table_page(self, row: dict[str, Any]) -> None:
        if not self._exists("Table", row["table_id"]):
            return
        owner = _table_owner(row["table_id"])
        page, _ = self._merge("Page", row["page_id"], owner)
        self._set(page, title=row["title"], text=row["text"], url=row["url"], source="table")
        self._rel("RENDERS", ("Page", row["page_id"]), ("Table", row["table_id"]), owner)
        for entity_id in row["mentions"]:
            self._merge("Entity", entity_id)
            self._rel("MENTIONS", ("Page", row["page_id"]), ("Entity", entity_id), owner)

    def _merge_table(self, row: dict[str, Any]) -> None:
        table, _ = self._merge("Table", row["table_id"], _table_owner(row["table_id"]))
        self._set(table, **{k: v for k, v in row.items() if k != "table_id"})

    def _merge_page(self, row: dict[str, Any]) -> None:
        owner = _page_owner(row["page_id"])
        page, _ = self._merge("Page", row["page_id"], owner)
        self._set(
            page,
            title=row["title"],
            text=row["text"],
            source=row["source"],
            url=row["url"],
            year=row["year"],
            # on the server the hash is set after the links, as the page's resume marker; here
            # the links always follow in the same load, so the node is written with it
            content_hash=row["content_hash"],
        )
        entity, _ = self._merge("Entity", row["page_id"])
        self._set(entity, name=row["name"], linked=True)
        self._rel("ABOUT", ("Page", row["page_id"]), ("Entity", row["page_id"]), owner)

    def _merge_page_links(self, row: dict[str, Any]) -> None:
        if not self._exists("Page", row["page_id"]):
            return
        page = ("Page", row["page_id"])
        owner = _page_owner(row["page_id"])
        if owner in self.fixups.distinct:
            self.fixups.batches.add(self.batch)
        for link in row["links"]:
            entity, created = self._merge("Entity", link["id"])
            if created:
                self._set(entity, name=link["name"], linked=True)
            self._rel("MENTIONS", page, ("Entity", link["id"]), owner)
            if self._exists("Page", link["id"]):
                self._rel("LINKS_TO", page, ("Page", link["id"]), owner)
        # finished: later reads skip it (its node, flushed by merge_pages, holds the hash)
        state = self.pages[row["page_id"]]
        state.content_hash, state.links_batch = row["content_hash"], self.batch

    def _merge_source(self, row: dict[str, Any]) -> None:
        source, _ = self._merge("Source", row["name"], "S:" + row["name"])
        self._set(source, location=row["location"])

    def _nothing_served_yet(self, row: dict[str, Any]) -> None:
        """A first load starts from an empty graph: no tree, task or rollout was built on a
        table yet, and a table read twice within the load was never served in its first
        version, so there is no stale work to mark and no earlier version to keep."""

    def _delete_table_parts(self, row: dict[str, Any]) -> None:
        """A table read again with other content (from another file of the same load): every
        row its batch wrote goes (the table node is written again by `merge_tables`)."""
        table_id = row["table_id"]
        state = self.tables.get(table_id)
        if state is None:
            return
        if table_id in self.local["Table"]:
            raise StageError(
                f"bulk load: table {table_id!r} is rewritten in the batch that wrote it"
            )
        self.fixups.stale.add((_table_owner(table_id), state.batch))
        state.content_hash = None
        if state.page is not None:
            self.pages.pop(state.page, None)
            state.page = None

    # --- batches and export ------------------------------------------------------------------
    def flush(self) -> None:
        """Write this batch's records to the CSV files and forget them, but for the fields of
        tables and pages that later reads need."""
        for label, nodes in self.local.items():
            key = KEYS[label]
            self.parts.add_nodes(
                label, key, ((k, p, self.owners[(label, k)]) for k, p in nodes.items()), self.batch
            )
            self.n_nodes += len(nodes)
        for table_id, props in self.local["Table"].items():
            self.tables[table_id] = _TableState(
                props.get("content_hash"),
                props.get("status"),
                props.get("origin"),
                self.batch,
                version=props.get("version"),
            )
        for page_id in self.local["Page"]:
            self.pages[page_id] = _PageState(self.batch)
            owner = self.owners[("Page", page_id)]
            if owner.startswith("T:"):
                self.tables[owner[2:]].page = page_id
        self._write_rels(self.rels.items())
        for nodes in self.local.values():
            nodes.clear()
        self.owners.clear()
        self.rels.clear()
        self.batch += 1

    def _write_rels(self, rels: Any) -> None:
        by_type: dict[tuple[str, str, str], list[tuple[str, str, dict[str, Any], str]]] = {}
        for (type_, (sl, sk), (el, ek), _), (props, owner) in rels:
            by_type.setdefault((type_, sl, el), []).append((sk, ek, props, owner))
        for (type_, sl, el), listed in by_type.items():
            self.parts.add_rels(type_, sl, el, listed, self.batch)
            self.n_rels += len(listed)

    def close(self) -> tuple[list[Path], list[Path]]:
        """The last batch and the shared nodes written; the files, filtered: (nodes, rels)."""
        self.flush()
        for label, nodes in self.shared.items():
            self.parts.add_nodes(label, KEYS[label], ((k, p, "") for k, p in nodes.items()), -1)
            self.n_nodes += len(nodes)
        return self.parts.close(self.fixups)

    def counts(self) -> tuple[int, int]:
        """Nodes and relationships in the files (after `close`: those imported)."""
        return self.n_nodes - self.parts.dropped[0], self.n_rels - self.parts.dropped[1]
