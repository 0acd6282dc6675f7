"""Writing tables into the graph: clean, pick the key column, then MERGE in batches.

For each batch of tables: tables already in the graph with the same content hash (content plus
cleaning settings) are skipped; changed ones keep their old version for provenance, mark what
was built on them stale (`seekgraph.synth.ingest.sources`) and lose their old rows; kept tables get columns,
rows, cells (linked cells → `Entity` keyed by link target, others → typed `Value`), FACT edges
named by the header's current relation, and a rendered `Page`; finally the `Table` node itself is
written with its hash, which marks it finished (a killed run redoes only unfinished tables).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import neo4j

from seekgraph.graphdb import cypher
from seekgraph.graphdb.stages import StageReport
from seekgraph.synth.ingest.cells import (
    display_name,
    holds_several,
    is_placeholder,
    joins_names,
    key_links,
    key_text,
    listed_links,
    median_words,
    mentions_only,
    named_links,
    names_other,
    paired_names,
    run_on_name,
    unlinked_name,
)
from seekgraph.synth.ingest.clean import Verdict, check_table, dropped_rows, table_context
from seekgraph.synth.ingest.config import IngestConfig
from seekgraph.synth.ingest.places import location, rejected_locations
from seekgraph.synth.ingest.records import Cell, RawTable, Unreadable
from seekgraph.synth.ingest.sources import VersionChange, supersede
from seekgraph.synth.ingest.values import clean_text, typed_value, value_id
from seekgraph.synth.ingest.writers import CypherWriter, GraphWriter
from seekgraph.synth.keycolumn import ColumnStats, column_stats, llm_key_column

if TYPE_CHECKING:
    from seekgraph.common.llm.base import LLMBackend
from seekgraph.synth.relations import Mapping, current_mappings, header_key, relation_for

STAGE = "ingest"
UNLINKED = "unlinked:"


def unlinked_id(name: str) -> str:
    """The id of an entity a key cell names without a link: ``unlinked:<folded name>``."""
    return UNLINKED + " ".join(name.lower().split())


def _folded(name: str) -> str:
    return " ".join(name.casefold().split())


def _linked_names(key_cells: Iterable[Cell]) -> Iterable[tuple[str, str]]:
    """(page, folded name) of each key cell that links one page."""
    for cell in key_cells:
        links = key_links(cell)
        text = clean_text(key_text(cell))
        if len(links) == 1 and text:
            yield links[0], _folded(unlinked_name(text))


def first_mentions(key_cells: Iterable[Cell]) -> dict[str, str]:
    """Names of a key column that one of its cells links, and the page it links: Wikipedia
    links a name at its first mention only, so another row naming the same person unlinked
    ("Chauncey Billups" of 1994 and 1995 beside the linked 1993 row, "Andy Lee (2)") is the
    same entity, not a second one of the same name. A name linked to two pages in one column
    is left out (two people of one name are told apart by their links).

    >>> first_mentions([Cell("Andy Lee", ("/wiki/Andy_Lee_(American_football)",)),
    ...     Cell("Andy Lee (2)", ())])
    {'andy lee': '/wiki/Andy_Lee_(American_football)'}
    """
    pages: dict[str, set[str]] = {}
    for link, name in _linked_names(key_cells):
        pages.setdefault(name, set()).add(link)
    return {name: next(iter(links)) for name, links in pages.items() if len(links) == 1}


def links_named_apart(key_cells: Iterable[Cell]) -> set[str]:
    """Pages that several cells of a key column link under longer names: the rows list things
    at or after the page ("Little Island 1" and "Little Island 2", two mills linking the
    place), so each row's thing is its cell's name, not the page. (A capitalised tail, "Old
    Windsor I", is caught cell by cell: `cells.extends_title`.)

    >>> links_named_apart([Cell("Little Island 1", ("/wiki/Little_Island,_Cork",)),
    ...     Cell("Little Island 2", ("/wiki/Little_Island,_Cork",)), Cell("Ebbsfleet",
    ...     ("/wiki/Ebbsfleet",)), Cell("Ebbsfleet", ("/wiki/Ebbsfleet",)), Cell("Liverpool",
    ...     ("/wiki/Liverpool_F.C.",)), Cell("Liverpool F.C.", ("/wiki/Liverpool_F.C.",))])
    {'/wiki/Little_Island,_Cork'}
    """
    names: dict[str, set[str]] = {}
    for link, name in _linked_names(key_cells):
        names.setdefault(link, set()).add(name)
    apart = set()
    for link, said in names.items():
        # each name is the page's and more ("Old Windsor" + "I"): a name that is the page's
        # own, or another name of it ("Man Utd"), lists the page itself
        head = _folded(display_name(link).split(",")[0])
        if len(said) > 1 and all(n != head and n.startswith(head + " ") for n in said):
            apart.add(link)
    return apart


# headers of a column that says where each row's thing is ("Location", "City, State", "Town")
_PLACE_HEADERS = frozenset({
    "location", "city", "town", "village", "county", "municipality", "community", "parish",
    "locality", "suburb",
})  # fmt: skip
_PLACE_END = re.compile(r"[,(;/]|\d")


def _place_of(cell: Cell) -> str:
    """The place a location cell names first: its first link's name without the region after
    the comma ("Carlisle, Cumbria" -> Carlisle), else its text up to a comma, bracket or
    digit ("Gloucester 51°51′38′′N ..." -> Gloucester)."""
    if cell.links:
        return display_name(cell.links[0]).split(",")[0].strip()
    return _PLACE_END.split(clean_text(cell.text), maxsplit=1)[0].strip()


def names_placed_apart(table: RawTable, key: int) -> dict[int, str]:
    """Rows whose unlinked key name another row repeats at another place, with their place:
    two churches both called "Christ Church", one in Gloucester and one in Carlisle, are two
    things, told apart as "Christ Church (Gloucester)" and "Christ Church (Carlisle)". The
    same person in several rows of an award list has no place column that differs, so stays
    one entity.

    >>> t = RawTable("t", "csv", "T", "", "", ["Name", "Location"], [[Cell("Christ Church", ()),
    ...     Cell("Gloucester 51°51′N", ())], [Cell("Christ Church", ()), Cell("Carlisle, Cumbria",
    ...     ("/wiki/Carlisle,_Cumbria",))], [Cell("St Paul's", ()), Cell("Preston", ())]])
    >>> names_placed_apart(t, 0)
    {0: 'Gloucester', 1: 'Carlisle'}
    """
    places = [
        c
        for c, h in enumerate(table.header)
        if c != key and set(re.findall(r"[a-z]+", h.lower())) & _PLACE_HEADERS
    ]
    if not places:
        return {}
    rows: dict[str, dict[int, str]] = {}
    for r, row in enumerate(table.rows):
        cell = row[key]
        text = clean_text(key_text(cell))
        if key_links(cell) or not text or places[0] >= len(row):
            continue
        place = _place_of(row[places[0]])
        if place:
            rows.setdefault(_folded(unlinked_name(text)), {})[r] = place
    return {
        r: place
        for at in rows.values()
        if len({_folded(p) for p in at.values()}) > 1
        for r, place in at.items()
    }


def render_table(table: RawTable) -> str:
    """A table as page text: title, section, header and one line per row."""
    lines = [table.title]
    if table.section_title:
        lines.append(table.section_title)
    lines.append(" | ".join(table.header))
    lines += [" | ".join(clean_text(c.text) for c in row) for row in table.rows]
    return "\n".join(lines)


def _table_node(
    table: RawTable, verdict: Verdict, content_hash: str, version: str, place: tuple[str, str]
) -> dict[str, Any]:
    """The Table node's row; `place`: (source name, path of its file in the source)."""
    return {
        "table_id": table.table_id,
        "title": table.title,
        "section_title": table.section_title,
        "url": table.url,
        "source": table.source,
        "n_rows": table.n_rows,
        "n_cols": table.n_cols,
        "status": "rejected" if verdict.reason else "kept",
        "reason": verdict.reason,
        "detail": verdict.detail or None,
        "key_column": verdict.key.index if verdict.key else None,
        "key_score": verdict.key.score if verdict.key else None,
        "content_hash": content_hash,
        "origin": table.origin or None,
        "version": version,
        "source_name": place[0] or None,
        "path": place[1] or None,
    }


def _ask_llm(
    llm: LLMBackend, table: RawTable, key: ColumnStats, report: StageReport
) -> ColumnStats:
    """On a close call (another usable column within 0.15 of the best score) let the LLM pick."""
    from seekgraph.common.llm.errors import BackendError

    close = [
        s
        for s in column_stats(table.header, table.rows, table_context(table))
        if s.score >= key.score - 0.15 and s.literal_share < 0.5
    ]
    if len(close) < 2:
        return key
    try:
        choice = llm_key_column(llm, table.title, table.header, table.rows, close)
    except BackendError as e:
        report.notes["key: llm errors"] = int(str(report.notes.get("key: llm errors", 0))) + 1
        report.notes["key: last llm error"] = str(e)[:200]
        return key
    picked = next((s for s in close if s.index == choice), key)
    if picked.index != key.index:
        report.notes["key: changed by llm"] = (
            int(str(report.notes.get("key: changed by llm", 0))) + 1
        )
    return picked


def paired(
    anchors: list[str], targets: list[tuple[str, bool]]
) -> list[tuple[str, list[tuple[str, bool]]]]:
    """Which of a cell's targets each anchor of the row holds: with several anchors and as many
    linked targets, the i-th anchor holds the i-th ("Barnes, Higham, Hines" | "Chicago,
    Hartford, Providence"); otherwise every anchor holds every target.

    >>> paired(["a", "b"], [("x", True), ("y", True)])
    [('a', [('x', True)]), ('b', [('y', True)])]
    >>> paired(["a", "b"], [("x", True)])
    [('a', [('x', True)]), ('b', [('x', True)])]
    """
    if len(anchors) > 1 and len(targets) == len(anchors) and all(e for _, e in targets):
        return [(a, [t]) for a, t in zip(anchors, targets, strict=True)]
    return [(a, targets) for a in anchors]


def usual_words(table: RawTable) -> list[float]:
    """Per column, how many words its cells usually have (`cells.median_words`)."""
    return [median_words(row[c].text for row in table.rows) for c in range(table.n_cols)]


def _unlinked_key_name(cell: Cell, entity_id: str) -> str:
    """The name of the unlinked entity `entity_id` a key cell names: the cell's name, or the
    one of its pair ("A / B", `paired_names`) the id was made from."""
    name = unlinked_name(clean_text(key_text(cell)))
    return next((n for n in paired_names(name) if unlinked_id(n) == entity_id), name)


class _Rows:
    """The parameter rows of one batch of kept tables, one list per Cypher file."""

    def __init__(self) -> None:
        self.columns: list[dict[str, Any]] = []
        self.rows: list[dict[str, Any]] = []
        self.entity_cells: list[dict[str, Any]] = []
        self.value_cells: list[dict[str, Any]] = []
        self.entity_facts: list[dict[str, Any]] = []
        self.value_facts: list[dict[str, Any]] = []
        self.pages: list[dict[str, Any]] = []
        self.n_rows = 0
        # what the last cell says of each of its targets when it names two things without a
        # separator (target id -> its own words); empty for every other cell
        self.said: dict[str, str] = {}
        # unlinked key entities named with their place (`names_placed_apart`): id -> name
        self.key_names: dict[str, str] = {}

    def add(
        self, table: RawTable, key: int, mappings: dict[str, Mapping], dropped: set[int]
    ) -> None:
        """The columns, rows, cells, facts and page of one kept table (`key`: its key column;
        `dropped`: rows rejected for their key cell, not written)."""
        relations = self._add_columns(table, key, mappings)
        mentions: set[str] = set()
        keys = [row[key] for row in table.rows]
        linked_once, named_apart = first_mentions(keys), links_named_apart(keys)
        placed_apart = names_placed_apart(table, key)
        usual = usual_words(table)
        for r, row in enumerate(table.rows):
            if r in dropped:
                continue
            row_id = f"{table.table_id}#r{r}"
            anchors = self._add_row(
                table, r, row[key], linked_once, named_apart, placed_apart.get(r, "")
            )
            for c, cell in enumerate(row):
                header = table.header[c] if c < len(table.header) else ""
                targets = self._add_cell(row_id, c, cell, key, anchors, mentions, header, usual[c])
                relation = relations.get(c)
                if c != key and relation is not None:
                    text = clean_text(cell.text)
                    for anchor, own in paired(anchors, targets):
                        self._add_facts(table.table_id, r, c, anchor, relation, own, text)
        self.pages.append(
            {
                "table_id": table.table_id,
                "page_id": f"table:{table.table_id}",
                "title": table.title,
                "url": table.url,
                "text": render_table(table),
                "mentions": sorted(mentions),
            }
        )

    def _add_columns(
        self, table: RawTable, key: int, mappings: dict[str, Mapping]
    ) -> dict[int, str | None]:
        """Column rows; returns each attribute column's relation (None for the key column)."""
        relations: dict[int, str | None] = {}
        for stats in column_stats(table.header, table.rows):
            hkey = header_key(stats.header)
            role = "key" if stats.index == key else "attribute"
            relation = relation_for(hkey, mappings) if role == "attribute" and hkey else None
            relations[stats.index] = relation
            self.columns.append(
                {
                    "table_id": table.table_id,
                    "column_id": f"{table.table_id}#{stats.index}",
                    "index": stats.index,
                    "header": stats.header,
                    "header_key": hkey,
                    "role": role,
                    "link_ratio": stats.link_ratio,
                    "uniqueness": stats.uniqueness,
                    "key_score": stats.score,
                    "relation": relation,
                }
            )
        return relations

    def _add_row(
        self,
        table: RawTable,
        r: int,
        key_cell: Cell,
        linked_once: dict[str, str],
        named_apart: set[str],
        place: str = "",
    ) -> list[str]:
        """The row and its anchors: one per entity its key cell names (an unlinked key cell is
        the entity another row of the column links under the same name, `first_mentions`,
        else an explicitly unlinked entity, ``unlinked:<name>``, never a made-up page id; a
        link other rows give under other names, `links_named_apart`, names the row's thing
        only by its cell; an unlinked "A / B" of two people's names is both, `paired_names`;
        an unlinked name other rows give at other places is named with its `place`,
        `names_placed_apart`)."""
        text = clean_text(key_text(key_cell))
        name = unlinked_name(text) if text else ""
        anchors = list(key_links(key_cell))
        if place and not anchors and name:
            named = f"{name} ({place})"  # "Christ Church (Gloucester)"
            self.key_names[unlinked_id(named)] = named
            anchors = [unlinked_id(named)]
        if len(anchors) == 1 and anchors[0] in named_apart and name:
            anchors = [unlinked_id(name)]  # "Little Island 1" and "Little Island 2": two mills
        if not anchors and name:  # one thing, or the two people of a pair ("A / B")
            anchors = [linked_once.get(_folded(n)) or unlinked_id(n) for n in paired_names(name)]
        elif len(anchors) == 1 and not anchors[0].startswith(UNLINKED):
            # "Jan Waggoner / Todd Waggoner" linking only Todd: Jan is the pair's other person
            sides = paired_names(name)
            other = [n for n in sides if _folded(n) != _folded(display_name(anchors[0]))]
            if len(sides) == 2 and len(other) == 1:
                anchors.append(linked_once.get(_folded(other[0])) or unlinked_id(other[0]))
        self.rows.append(
            {
                "table_id": table.table_id,
                "row_id": f"{table.table_id}#r{r}",
                "index": r,
                "anchor_ids": anchors,
            }
        )
        self.n_rows += 1
        return anchors

    def _add_cell(
        self,
        row_id: str,
        c: int,
        cell: Cell,
        key: int,
        anchors: list[str],
        mentions: set[str],
        header: str,
        usual: float,
    ) -> list[tuple[str, bool]]:
        """One cell's HAS_CELL rows; returns its targets as (id, is an entity). `usual`: the
        column's usual number of words (`usual_words`)."""
        text = clean_text(cell.text)
        self.said = {}
        if not cell.links and is_placeholder(text, header):
            return []
        named = named_links(cell)
        links = listed_links(cell, named)
        if c == key:
            links = tuple(anchors)
        elif links and (
            mentions_only(cell)
            or (joins_names(text, named) and not holds_several(header))
            or all(names_other(text, x) for x in links)
        ):
            mentions.update(links)  # the table page still links to them
            links = ()
        # "Esmaeil Sedigh Joel Villarino" linking the first: two names, the second a text value
        second = (
            run_on_name(text, links[0], usual)
            if c != key and len(links) == 1 and not links[0].startswith(UNLINKED)
            else ""
        )
        if links:
            alias = text if len(links) == 1 and text and len(text) <= 100 and not second else ""
            for link in links:
                linked = not link.startswith(UNLINKED)
                self.entity_cells.append(
                    {
                        "row_id": row_id,
                        "column": c,
                        "text": text,
                        "entity_id": link,
                        "name": display_name(link)
                        if linked
                        else self.key_names.get(link) or _unlinked_key_name(cell, link)
                        if c == key
                        else text,
                        "alias": alias if alias and alias != display_name(link) else None,
                        "linked": linked,
                    }
                )
                if linked:
                    mentions.add(link)
            targets = [(link, True) for link in links]
            if not second:
                return targets
            value = self._add_value(row_id, c, second)
            first = " ".join(text.split()[: -len(second.split())])
            self.said = {links[0]: first, value[0][0]: second}
            return targets + value
        return self._add_value(row_id, c, text)

    def _add_value(self, row_id: str, c: int, text: str) -> list[tuple[str, bool]]:
        """One literal value of a cell (typed: number, year, date or text)."""
        kind, normalized = typed_value(text)
        vid = value_id(kind, normalized)
        self.value_cells.append(
            {
                "row_id": row_id,
                "column": c,
                "text": text,
                "value_id": vid,
                "kind": kind,
                "normalized": normalized,
            }
        )
        return [(vid, False)]

    def _add_facts(
        self,
        table_id: str,
        r: int,
        c: int,
        anchor: str,
        relation: str,
        targets: list[tuple[str, bool]],
        text: str,
    ) -> None:
        """FACT edges of one cell; a value's edge keeps the cell's own text (the Value node is
        shared by every equal cell, so its text is the first one seen), or, of a cell naming two
        things run together, the words that name the target (`self.said`)."""
        for target, is_entity in targets:
            if target == anchor:
                continue
            fact = {
                "anchor_id": anchor,
                "target_id": target,
                "relation": relation,
                "table_id": table_id,
                "row": r,
                "column": c,
                "text": self.said.get(target, text),
            }
            (self.entity_facts if is_entity else self.value_facts).append(fact)

    def write(self, writer: GraphWriter, batch: int) -> None:
        for name, rows in (
            ("ingest/merge_columns", self.columns),
            ("ingest/merge_rows", self.rows),
            ("ingest/merge_entity_cells", self.entity_cells),
            ("ingest/merge_value_cells", self.value_cells),
            ("ingest/merge_entity_facts", self.entity_facts),
            ("ingest/merge_value_facts", self.value_facts),
            ("ingest/merge_table_pages", self.pages),
        ):
            size = max(1, batch // 20) if name == "ingest/merge_table_pages" else batch
            writer.write(name, rows, batch_size=size)


def _kept_elsewhere(before: dict[str, Any], table: RawTable) -> bool:
    """The graph holds this id as a kept table read from another place (file and line; the
    same place with new content is an update)."""
    return bool(
        before["status"] == "kept"
        and before["origin"]
        and table.origin
        and location(before["origin"]) != location(table.origin)
    )


def ingest_tables(
    driver: neo4j.Driver,
    items: Iterable[RawTable | Unreadable],
    config: IngestConfig | None = None,
    *,
    database: str | None = None,
    report: StageReport | None = None,
    on_record: Callable[[int], None] | None = None,
    llm: LLMBackend | None = None,
    writer: GraphWriter | None = None,
    place: tuple[str, str] = ("", ""),
    seen_ids: set[str] | None = None,
) -> StageReport:
    """Clean and write `items` (from the readers); returns the stage report.

    `writer`: where reads and writes go (default: the server, through `driver`). `place`:
    the source name and the path of the file in it, stored on each table (what
    ``--retire-missing`` compares); `seen_ids` collects the ids of the tables read.

    With `llm`, close calls between key columns are decided by the model (see `_ask_llm`).

    Kept: tables written as `status: kept`; rejected: tables written as `status: rejected`
    with their reason, and unreadable records, each also a `Rejection` (via the report).
    Skipped: tables already in the graph with the same content and settings.
    """
    config = config or IngestConfig()
    report = report or StageReport(STAGE)
    writer = writer or CypherWriter(driver, database)
    fingerprint = config.fingerprint()
    mappings = current_mappings(driver, database)
    rejected_places = rejected_locations(driver, database)
    counts = report.notes
    for chunk in cypher.batched(items, config.table_batch):
        tables = [t for t in chunk if isinstance(t, RawTable)]
        for bad in chunk:
            if isinstance(bad, Unreadable):
                report.reject(bad.record_id, bad.reason, bad.detail)
        existing = {
            row["table_id"]: row
            for row in writer.read("ingest/find_tables", ids=[t.table_id for t in tables])
        }
        batch = _Rows()
        redo: list[dict[str, str]] = []
        changes: list[VersionChange] = []
        nodes: list[dict[str, Any]] = []
        seen: set[str] = set()
        for table in tables:
            version = table.content_hash()
            digest = f"{version}-{fingerprint}"
            if table.table_id in seen:
                report.reject(
                    table.table_id,
                    "duplicate_id",
                    f"a table with this id came earlier (this one: {location(table.origin)})",
                )
                continue
            seen.add(table.table_id)
            repeated = seen_ids is not None and table.table_id in seen_ids
            if seen_ids is not None:
                seen_ids.add(table.table_id)
            before = existing.get(table.table_id)
            if before and before["content_hash"] == digest:
                report.skip()
                continue
            verdict = check_table(table, config)
            if verdict.reason and before and _kept_elsewhere(before, table):
                report.reject(
                    table.origin,
                    "id_clash",
                    f"table {table.table_id} is kept from {before['origin']}; this copy is "
                    f"{verdict.reason} and does not replace it",
                )
                continue
            if before:
                redo.append({"table_id": table.table_id})
                # read earlier in this run (another file): that version was never served
                changes.append(
                    VersionChange(table.table_id, None, version, repeated=True)
                    if repeated
                    else VersionChange.of(before, version)
                )
            nodes.append(_table_node(table, verdict, digest, version, place))
            if verdict.reason:
                where = f" (at {location(table.origin)})" if table.origin else ""
                report.reject(table.table_id, verdict.reason, verdict.detail + where)
                continue
            report.clear(table.table_id)
            if location(table.origin) in rejected_places:
                report.clear(location(table.origin))
            assert verdict.key is not None
            key = _ask_llm(llm, table, verdict.key, report) if llm else verdict.key
            dropped = verdict.dropped
            if key is not verdict.key:
                nodes[-1].update(key_column=key.index, key_score=key.score)
                dropped = dropped_rows(table, key.index)
            for r, reason, text in dropped:
                report.reject(f"{table.table_id}#r{r}", reason, f"key cell {text!r}")
            batch.add(table, key.index, mappings, {r for r, _, _ in dropped})
            report.keep()
        supersede(writer, changes)
        writer.write("ingest/delete_table_parts", redo, batch_size=10)
        batch.write(writer, config.cell_batch)
        # a table node is the resume marker (a re-run skips it): its rejection goes first
        writer.save_rejections(report)
        writer.write("ingest/merge_tables", nodes, batch_size=config.cell_batch)
        counts["rows written"] = int(str(counts.get("rows written", 0))) + batch.n_rows
        if on_record is not None:
            on_record(len(chunk))
    return report


def graph_counts(driver: neo4j.Driver, database: str | None = None) -> dict[str, int]:
    """``{"node:Label": n, "rel:TYPE": n}`` for the whole graph."""
    return {
        row["kind"]: int(row["n"])
        for row in cypher.read(driver, "ingest/count_graph", database=database)
    }
