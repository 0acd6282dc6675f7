"""The graph operations seeds and expansion need, answered by Cypher and cached per run."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field

import neo4j

from seekgraph.graphdb import cypher
from seekgraph.synth.head_nouns import page_kind
from seekgraph.synth.phrasing.attributes import phrase_attribute
from seekgraph.synth.phrasing.headers import label
from seekgraph.synth.phrasing.tables import TableRef
from seekgraph.synth.shaper.compile import execute
from seekgraph.synth.shaper.kp import KPTask, RelationSpec, Var, parse_relation, table_relation

# rows a column needs before its repeats say it names kinds (`GraphOps.names_kinds`)
KIND_COLUMN_ROWS = 4
# relations whose values are kinds of things in any table, however few its rows: a position,
# a genre, a format, a sport. A small All-America team lists eleven players at eight
# positions, yet "the same position as" is still a coincidence of kinds, not a link between
# two things ("a Brazilian film with the genre of a Bollywood film", "Houston's annual events
# with the sport of a May 2014 game"); a rank, a language, a medal, a type, a conference or a
# country likewise ("a soldier with the rank of the ace who ...", "a 2011 baseball team in the
# conference of a 1948 undrafted player", "a Miss World model from the country of a runner")
KIND_RELATIONS = frozenset(
    [
        *["position", "positions", "pos", "playing_position"],
        *["genre", "genres", "format", "style", "sport", "sports"],
        *["rank", "ranks", "military_rank", "grade", "rating"],
        *["language", "languages", "original_language"],
        *["medal", "type", "types", "category", "class", "status", "gender", "sex"],
        *["religion", "degree", "level", "service", "branch", "handedness", "bats", "throws"],
        *["conference", "primary_conference", "league", "division"],  # a team's grouping
        *["country", "nation", "nationality", "represented"],
        # a team's outfitters: "a shirt sponsor that is the kit manufacturer of a Malaysian
        # club" joins two leagues on a brand both happen to use
        *["kit_manufacturer", "kit_maker", "kit_supplier", "kit", "manufacturer_kit"],
        *["shirt_sponsor", "kit_sponsor", "sponsor", "sponsors", "main_sponsor"],
    ]
)


@dataclass(frozen=True)
class Neighbour:
    """``[node, relation, ref]`` holds in the graph; `name` is ref's display name."""

    relation: str
    ref: str
    label: str
    name: str
    degree: int = 0  # the node's facts in other tables and its page links: where to go on

    @property
    def is_link(self) -> bool:
        return parse_relation(self.relation).kind == "link"


def said_label(relation: str, header: str | None) -> str:
    """What a KP question calls a column: its header's words, with an abbreviation spelled
    out as the WebLeaper questions spell it ("Conf" is the conference, "Pos" the position).

    >>> said_label("conf", "Conf"), said_label("pos", "Pos"), said_label("college", "College")
    ('conference', 'position', 'college')
    >>> said_label("original_nfl_team", "Original NFL team")
    'original NFL team'
    """
    words = label(relation, header)
    spoken = phrase_attribute(header or words).text
    if not spoken.startswith("their "):
        return words
    noun = spoken.removeprefix("their ")
    if noun.lower() == words.lower() or len(noun.split()) != len(words.split()):
        return words
    return noun if noun[1:2].isupper() else noun[:1].lower() + noun[1:]


def task_key(task: KPTask) -> str:
    """A canonical form of a task's formalization (variables renamed by first occurrence)."""
    rename: dict[Var, str] = {}
    rows = []
    for t in task.triples:
        terms = []
        for term in t.terms():
            if isinstance(term, Var):
                terms.append(rename.setdefault(term, "?" if term.is_target else f"v{len(rename)}"))
            else:
                terms.append(f"{term.label}:{term.ref}")
        rows.append([t.relation, terms[0], sorted(terms[1:])])
    return json.dumps(sorted(rows), ensure_ascii=False)


@dataclass
class GraphOps:
    """Executes tasks and lists neighbours on the server, memoising both (a run asks repeatedly)."""

    driver: neo4j.Driver
    database: str | None = None
    neighbour_limit: int = 300
    queries: int = 0
    _answers: dict[str, dict[str, str]] = field(default_factory=dict)
    _neighbours: dict[str, list[Neighbour]] = field(default_factory=dict)
    _tables: dict[str, tuple[TableRef, bool]] = field(default_factory=dict)
    _key_headers: dict[str, str | None] = field(default_factory=dict)
    _labels: dict[str, str] = field(default_factory=dict)
    _page_kinds: dict[str, str | None] = field(default_factory=dict)
    _spreads: dict[tuple[str, str], tuple[int, int, int]] = field(default_factory=dict)

    def tables(self, task: KPTask) -> dict[str, tuple[TableRef, bool]]:
        """``{table_id: (how a question names it, served by the offline web)}`` of the tables
        the task's facts come from."""
        ids = {s.table for t in task.triples if (s := parse_relation(t.relation)).table}
        self.read_tables(ids)
        return {tid: self._tables[tid] for tid in ids}

    def read_tables(self, ids: set[str]) -> None:
        """Read the names and column labels of the tables not read yet, in one query."""
        missing = sorted(ids - set(self._tables))
        if missing:
            self.queries += 1
            for r in cypher.read(
                self.driver, "shaper/find_table_pages", database=self.database, table_ids=missing
            ):
                ref = TableRef(
                    r["title"] or r["table_id"],
                    r["section"] or "",
                    columns=tuple(str(h) for h in r["headers"] or ()),
                    first_row=str(r["first_row"] or ""),
                )
                self._tables[r["table_id"]] = (ref, bool(r["served"] and r["title"]))
                self._key_headers[r["table_id"]] = r["key_header"]
                for c in r["columns"] or []:
                    key = f"{c['relation']}@{r['table_id']}"
                    self._labels.setdefault(key, said_label(c["relation"], c["header"]))

    def relation_label(self, relation: str) -> str | None:
        """What a question calls a table fact's relation (its header's words), or None for a
        page link or a relation of no known column."""
        spec = parse_relation(relation)
        if not spec.table:
            return None
        self.read_tables({spec.table})
        return self._labels.get(f"{spec.name}@{spec.table}")

    def labels(self, task: KPTask) -> dict[str, str]:
        """``{relation@table_id: what a question calls it}`` (its column's header, as the
        WebLeaper questions say it) for the task's table facts."""
        self.tables(task)
        keys = {
            f"{s.name}@{s.table}" for t in task.triples if (s := parse_relation(t.relation)).table
        }
        return {k: self._labels[k] for k in sorted(keys) if k in self._labels}

    def names_kinds(self, relation: str) -> bool:
        """Whether a table fact's column names kinds of things rather than things: at least
        `KIND_COLUMN_ROWS` rows hold a value and at most half as many different values (the
        positions of a draft, the kit makers of a league, the degrees of alumni), or a relation
        that names kinds anywhere (`KIND_RELATIONS`). Its values are fine as constants, but a
        chain through one joins two rows by coincidence."""
        spec = parse_relation(relation)
        if spec.kind != "fact" or not spec.table:
            return False
        if spec.name in KIND_RELATIONS:
            return True
        facts, values, _ = self._spread(spec)
        return facts >= KIND_COLUMN_ROWS and 2 * values <= facts

    def fills_column(self, relation: str) -> bool:
        """Whether one value fills the column of a table fact read forward: at least
        `KIND_COLUMN_ROWS` rows hold a value and all but a tenth hold the same one (a talk
        show's co-hosts "Regis Philbin"). As a clue it says no more of a row than that the row
        is in the table."""
        spec = parse_relation(relation)
        if spec.kind != "fact" or spec.inverse or not spec.table:
            return False
        facts, _, top = self._spread(spec)
        return facts >= KIND_COLUMN_ROWS and 10 * top >= 9 * facts

    def read_spreads(self, relations: Iterable[str]) -> None:
        """Read the spreads (`_spread`) of the table facts' columns not read yet, in one query
        (`askable` asks them of every neighbour of a node at once)."""
        specs = [parse_relation(r) for r in relations]
        missing = sorted(
            {(s.name, s.table) for s in specs if s.kind == "fact" and s.table} - set(self._spreads)
        )
        if not missing:
            return
        self.queries += 1
        rows = cypher.read(
            self.driver,
            "shaper/column_spread",
            database=self.database,
            columns=[{"table_id": table, "relation": name} for name, table in missing],
        )
        for row in rows:
            key = (row["relation"], row["table_id"])
            self._spreads[key] = (int(row["facts"]), int(row["values"]), int(row["top"] or 0))

    def _spread(self, spec: RelationSpec) -> tuple[int, int, int]:
        """(rows holding a value, different values, rows holding the most common value) of a
        table's column (``shaper/column_spread``)."""
        key = (spec.name, spec.table)
        if key not in self._spreads:
            self.read_spreads([table_relation(spec.name, spec.table)])
        return self._spreads[key]

    def key_header(self, table_id: str) -> str | None:
        """The header of the table's key column (read with `tables`)."""
        return self._key_headers.get(table_id)

    def table_name(self, table_id: str) -> TableRef | None:
        """How a question names the table (read with `tables`), or None for an unknown one."""
        self.read_tables({table_id})
        found = self._tables.get(table_id)
        return found[0] if found else None

    def page_kinds(self, refs: list[str]) -> list[str | None]:
        """What each node is by the first sentence of its own page (None: no page, or a
        page that does not say; `seekgraph.synth.head_nouns.page_kind`)."""
        missing = sorted(set(refs) - set(self._page_kinds))
        for batch in cypher.batched(missing, 2000):
            self.queries += 1
            for r in cypher.read(
                self.driver, "quality/find_entity_pages", database=self.database, entity_ids=batch
            ):
                self._page_kinds[r["entity_id"]] = page_kind(r["text"]) if r["text"] else None
        return [self._page_kinds.get(ref) for ref in refs]

    def answer(self, task: KPTask) -> dict[str, str]:
        """``{ref: name}`` of the task's answer set."""
        key = task_key(task)
        if key not in self._answers:
            self.queries += 1
            self._answers[key] = execute(self.driver, task, self.database)
        return self._answers[key]

    def answer_of(self, task: KPTask) -> set[str]:
        return set(self.answer(task))

    def neighbours(self, ref: str) -> list[Neighbour]:
        if ref not in self._neighbours:
            self.queries += 1
            rows = cypher.read(
                self.driver,
                "shaper/find_neighbours",
                database=self.database,
                ref=ref,
                limit=self.neighbour_limit,
            )
            self._neighbours[ref] = [
                Neighbour(r["relation"], r["ref"], r["label"], r["name"], r["degree"]) for r in rows
            ]
        return self._neighbours[ref]

    def neighbour_refs(self, ref: str) -> list[str]:
        return [n.ref for n in self.neighbours(ref)]
