"""The parts of kept tables as the parameter rows of the ingest Cypher files: columns, rows
and their anchors, cells (linked cells → `Entity` keyed by link target, others → typed
`Value`), FACT edges named by the header's current relation, and the rendered `Page`. Which
tables are kept, and the writing itself, are `seekgraph.synth.ingest.tables`'s.
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from typing import Any

from seekgraph.synth.ingest.cell_links import mentions_only, named_links, names_other
from seekgraph.synth.ingest.cell_lists import (
    column_words,
    glued_before,
    holds_several,
    joins_names,
    listed_links,
    median_words,
    run_on_name,
    runs_together,
    whole_folded,
)
from seekgraph.synth.ingest.cells import (
    display_name,
    fold_text,
    is_placeholder,
    paired_names,
    strip_disambiguator,
    unlinked_name,
    without_credit,
)
from seekgraph.synth.ingest.key_cells import key_links, key_text
from seekgraph.synth.ingest.records import Cell, RawTable, title_from_id
from seekgraph.synth.ingest.unlinked import (
    UNLINKED,
    first_mentions,
    folded_name,
    links_named_apart,
    names_placed_apart,
    unlinked_id,
)
from seekgraph.synth.ingest.values import clean_text, typed_value, value_id
from seekgraph.synth.ingest.writers import GraphWriter
from seekgraph.synth.key_score import column_stats
from seekgraph.synth.relations import Mapping, header_key, relation_for


def render_table(table: RawTable) -> str:
    """A table as page text: title, section, header and one line per row."""
    lines = [table.title]
    if table.section_title:
        lines.append(table.section_title)
    lines.append(" | ".join(table.header))
    lines += [" | ".join(clean_text(c.text) for c in row) for row in table.rows]
    return "\n".join(lines)


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
    """Per column, how many words its cells usually have (`cell_lists.median_words`)."""
    return [median_words(row[c].text for row in table.rows) for c in range(table.n_cols)]


def _unlinked_key_name(cell: Cell, entity_id: str) -> str:
    """The name of the unlinked entity `entity_id` a key cell names: the cell's name, or the
    one of its pair ("A / B", `paired_names`) the id was made from."""
    name = unlinked_name(clean_text(key_text(cell)))
    return next((n for n in paired_names(name) if unlinked_id(n) == entity_id), name)


class RowWriter:
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
        alone = [
            column_words(clean_text(row[c].text) for row in table.rows) for c in range(table.n_cols)
        ]
        for r, row in enumerate(table.rows):
            if r in dropped:
                continue
            row_id = f"{table.table_id}#r{r}"
            anchors = self._add_row(
                table, r, row[key], linked_once, named_apart, placed_apart.get(r, "")
            )
            for c, cell in enumerate(row):
                header = table.header[c] if c < len(table.header) else ""
                targets = self._add_cell(
                    row_id, c, cell, key, anchors, mentions, header, usual[c], alone[c]
                )
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
        if len(anchors) == 1 and name and _links_beside(table.rows[r], key_cell, anchors[0], text):
            # "Poi E" linking Patea Maori Club, whose Artist cell links it too: the song
            self.key_names[unlinked_id(name)] = name
            anchors = [unlinked_id(name)]
        if place and not anchors and name:
            named = f"{name} ({place})"  # "Christ Church (Gloucester)"
            self.key_names[unlinked_id(named)] = named
            anchors = [unlinked_id(named)]
        if len(anchors) == 1 and anchors[0] in named_apart and name:
            anchors = [unlinked_id(name)]  # "Little Island 1" and "Little Island 2": two mills
        if not anchors and name:  # one thing, or the two people of a pair ("A / B")
            anchors = [
                linked_once.get(folded_name(n)) or unlinked_id(n) for n in paired_names(name)
            ]
        elif len(anchors) == 1 and not anchors[0].startswith(UNLINKED):
            # "Jan Waggoner / Todd Waggoner" linking only Todd: Jan is the pair's other person
            sides = paired_names(name)
            other = [n for n in sides if folded_name(n) != folded_name(display_name(anchors[0]))]
            if len(sides) == 2 and len(other) == 1:
                anchors.append(linked_once.get(folded_name(other[0])) or unlinked_id(other[0]))
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
        alone: AbstractSet[str] = frozenset(),
    ) -> list[tuple[str, bool]]:
        """One cell's HAS_CELL rows; returns its targets as (id, is an entity). `usual`: the
        column's usual number of words (`usual_words`); `alone`: what its cells name one at a
        time (`column_words`)."""
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
            or (len(links) == 1 and _parenthesised_list(text))
        ):
            mentions.update(links)  # the table page still links to them
            links = ()
        # "Esmaeil Sedigh Joel Villarino" linking the first: two names, the second a text value
        one_linked = c != key and len(links) == 1 and not links[0].startswith(UNLINKED)
        second = run_on_name(text, links[0], usual) if one_linked else ""
        # "Island line South Island line" linking the second: the first a text value
        before = glued_before(text, links[0]) if one_linked and not second else ""
        if links:
            alias = text if len(links) == 1 and text and len(text) <= 100 and not second else ""
            alias = "" if before else alias
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
            if before:
                value = self._add_value(row_id, c, before)
                self.said = {
                    links[0]: " ".join(text.split()[len(before.split()) :]),
                    value[0][0]: before,
                }
                return targets + value
            if not second:
                return targets
            value = self._add_value(row_id, c, second)
            first = " ".join(text.split()[: -len(second.split())])
            self.said = {links[0]: first, value[0][0]: second}
            return targets + value
        listed = runs_together(text, set(alone) - {whole_folded(text)}) if c != key else []
        if listed:
            # "France Italy West Germany": the column's own values run together, said as a list
            said = ", ".join(listed)
            value = self._add_value(row_id, c, said)
            self.said = {value[0][0]: said}
            return value
        return self._add_value(row_id, c, without_credit(text) if c != key else text)

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


def _links_beside(row: list[Cell], key_cell: Cell, link: str, text: str) -> bool:
    """Whether a key cell's one link names something another cell of its row links too, and
    the key does not write the page's name: the key cell names a thing of that one's ("Poi
    E" linking its artist Patea Maori Club, linked again under Artist; "Kwicky Koala" linking
    "The Kwicky Koala Show", the Work beside it; the dukedom "Inverness" linking its
    grantee), so the row's thing is the key's text, unlinked.

    >>> poi = Cell("Poi E", ("/wiki/Patea_Maori_Club",))
    >>> _links_beside([Cell("Patea Maori Club", ("/wiki/Patea_Maori_Club",)), poi], poi,
    ...               "/wiki/Patea_Maori_Club", "Poi E")
    True
    >>> koala = Cell("Kwicky Koala", ("/wiki/The_Kwicky_Koala_Show",))
    >>> _links_beside([koala, Cell("The Kwicky Koala Show", ("/wiki/The_Kwicky_Koala_Show",))],
    ...               koala, "/wiki/The_Kwicky_Koala_Show", "Kwicky Koala")
    True
    >>> fernando = Cell("Fernando", ("/wiki/Fernando_(song)",))
    >>> _links_beside([Cell("ABBA", ("/wiki/ABBA",)), fernando, Cell("x", ("/wiki/Fernando_(song)",))],
    ...               fernando, "/wiki/Fernando_(song)", "Fernando")
    False
    """
    if fold_text(text).strip() == fold_text(strip_disambiguator(title_from_id(link))).strip():
        return False  # "Fernando" is the page's own name, wherever else the row links it
    return any(link in cell.links for cell in row if cell is not key_cell)


def _parenthesised_list(text: str) -> bool:
    """Whether a cell lists several things, each with a note in brackets ("Atlanta Falcons
    (1991) Green Bay Packers (1992 - 2007) New York Jets (2008)"): its one link names one of
    them, so the value is the cell's text, not the linked page.

    >>> _parenthesised_list("Atlanta Falcons (1991) Green Bay Packers (1992 - 2007)")
    True
    >>> _parenthesised_list("Paris (France) (1990)"), _parenthesised_list("Miami Dolphins (1983 - 1999)")
    (False, False)
    """
    parts = re.split(r"\([^()]*\)", text)
    return sum(bool(re.search(r"[^\W\d_]", p)) for p in parts) >= 2 and len(parts) >= 3
