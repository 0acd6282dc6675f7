"""Basic reasoning trees: root = question entity, second layer = anchors, third = attributes.

One tree per kept table (``tree:<table_id>``): the root text comes from the page title and
section, the kind of entity it lists from the anchors' own pages (`seekgraph.synth.kinds`:
the key column's header only when it agrees with them), whether it is a selection from its
section, size and rows (`seekgraph.synth.leaper.selection`), the anchors are the entities of the key column
(``(:Row)-[:ANCHOR]->(:Entity)``, several per row when a key cell names several), and
the relations are those of the anchors' facts from that table. A table with fewer than
`min_anchors` anchors or no relation gives no tree (rejected with the reason).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import neo4j

from seekgraph.graphdb import cypher
from seekgraph.graphdb.stages import StageReport
from seekgraph.synth.head_nouns import page_kind
from seekgraph.synth.kinds import answers_kind
from seekgraph.synth.leaper.common import LeaperConfig
from seekgraph.synth.leaper.selection import first_rows, table_selection
from seekgraph.synth.phrasing.header_kind import key_kind

STAGE = "leaper-trees"
_GENERIC_SECTIONS = {"", "main", "list", "table", "overview", "results", "summary"}


def root_text(title: str | None, section: str | None) -> str:
    """The question entity: the title without "List of", plus an informative section title.

    >>> root_text("List of Nobel laureates in Literature", "Laureates (selection)")
    'Nobel laureates in Literature: Laureates (selection)'
    >>> root_text("Booker Prize", "")
    'Booker Prize'
    """
    base = re.sub(r"^\s*lists? of\s+", "", (title or "").strip(), flags=re.IGNORECASE)
    base = base[:1].upper() + base[1:]
    sec = (section or "").strip()
    if sec.lower() in _GENERIC_SECTIONS or sec.lower() in base.lower():
        return base
    return f"{base}: {sec}"


def build_trees(
    driver: neo4j.Driver,
    database: str | None,
    config: LeaperConfig,
    progress: Callable[[int], None] | None = None,
) -> StageReport:
    """Write one Tree per kept table that has none yet; skips finished tables (resumable)."""
    report = StageReport(STAGE)
    sources = cypher.read(driver, "leaper/find_tree_sources", database=database)
    todo = []
    for src in sources:
        if src["done"]:
            report.skip()
        else:
            todo.append(src)
    if progress is not None and report.skipped:
        progress(report.skipped)
    for batch in cypher.batched(todo, config.batch_size):
        layers = {
            r["table_id"]: r
            for r in cypher.read(
                driver,
                "leaper/find_table_layers",
                database=database,
                table_ids=[s["table_id"] for s in batch],
            )
        }
        rows: list[dict[str, Any]] = []
        for src in batch:
            tid = src["table_id"]
            layer = layers.get(tid)
            anchors = sorted(layer["anchors"]) if layer else []
            relations = sorted(layer["relations"]) if layer else []
            if len(anchors) < config.min_anchors:
                report.reject(
                    f"tree:{tid}",
                    "too_few_anchors",
                    f"{len(anchors)} anchors < {config.min_anchors}",
                )
                continue
            if not relations:
                report.reject(f"tree:{tid}", "no_relations", "the anchors have no facts")
                continue
            pages = layer["pages"] if layer else []
            kind = answers_kind(
                [page_kind(p["text"]) for p in pages],
                key_kind(src["key_header"], src["title"]),
                src["title"],
                src["section_title"],
            )
            report.count(f"kind from {kind.source}")
            selection = table_selection(src, [str(p["name"] or "") for p in pages])
            if selection:
                report.count(f"selection {selection}")
            rows.append(
                {
                    "tree_id": f"tree:{tid}",
                    "table_id": tid,
                    "root": root_text(src["title"], src["section_title"]),
                    "key_header": src["key_header"],
                    "kind": kind.singular,
                    "kind_plural": kind.plural,
                    "kind_source": kind.source,
                    "selection": selection,
                    "first_rows": first_rows(
                        src["n_rows"], src["source"], src["title"], src["section_title"]
                    ),
                    "anchors": anchors,
                    "relations": relations,
                }
            )
        cypher.run_batches(
            driver, "leaper/merge_trees", rows, database=database, batch_size=config.batch_size
        )
        report.keep(len(rows))
        if progress is not None:
            progress(len(batch))
    return report.finish()
