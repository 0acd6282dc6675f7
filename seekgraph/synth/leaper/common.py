"""What the WebLeaper stages share: their settings, the task record, the held-out split, writes."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

import neo4j

from seekgraph.common.config import option
from seekgraph.graphdb import cypher
from seekgraph.graphdb.stages import StageReport
from seekgraph.synth.ingest.cell_lists import LIST_SEPARATOR, glued_value
from seekgraph.synth.ingest.cells import outside_parentheses
from seekgraph.synth.ingest.unlinked import PLACE_HEADERS
from seekgraph.synth.ingest.values import typed_value
from seekgraph.synth.split import HELDOUT_PERCENT, NONE, split_of_sources


@dataclass(frozen=True)
class LeaperConfig:
    """Settings of the WebLeaper stages (config section ``[leaper]``; flags override)."""

    min_anchors: int = option(3, "A tree needs at least this many anchors (second layer).", min=1)
    max_targets: int = option(400, "Reject a task whose target set R is larger (too_large).", min=1)
    max_question_chars: int = option(
        1000,
        "Reject a task whose question is longer (question_too_long); it is stored cut to this.",
        min=100,
    )
    min_relations: int = option(2, "k: a biclique's trees share at least k relations.", min=1)
    min_trees: int = option(2, "A biclique merges at least this many trees.", min=2)
    similarity: str = option(
        "embedding",
        "How tree roots are judged related: all-MiniLM-L6-v2 embeddings or, explicitly, tokens.",
        choices=("embedding", "tokens"),
    )
    threshold: float = option(
        0.45, "Roots at least this similar are on a related topic.", min=-1, max=1
    )
    max_group_trees: int = option(
        100, "A larger topic group is split again at a stricter threshold.", min=2
    )
    threshold_step: float = option(
        0.05, "How much stricter each split of a topic group is.", min=0.001, max=1
    )
    max_anchor_overlap: float = option(
        0.8, "Union: trees whose anchors overlap more (Jaccard) are one list twice.", min=0, max=1
    )
    place_threshold: float = option(
        0.6,
        "Union: trees that list places join only when their roots are at least this similar.",
        min=-1,
        max=1,
    )
    max_bicliques: int = option(
        1000, "Reject a topic group with more maximal bicliques than this.", min=1
    )
    max_clues: int = option(3, "Reverse-Union: at most this many attribute clues.", min=1)
    min_reverse_answers: int = option(
        3, "Reverse-Union: a pivot must be shared by at least this many other entities.", min=1
    )
    bridges_per_union: int = option(2, "Reverse-Union: bridge anchors tried per Union task.", min=1)
    batch_size: int = option(200, "Trees or tasks per batch of reads and writes.", min=1)
    paraphrase_with: str = option(
        "", "LLM backend spec that paraphrases questions (empty: templates only)."
    )

    def __post_init__(self) -> None:
        if self.max_group_trees < self.min_trees:
            raise ValueError("max_group_trees must be at least min_trees")


@dataclass(frozen=True)
class Target:
    """One member of the target set R: an Entity or Value node with its role."""

    role: str  # anchor | attribute | answer
    kind: str  # entity | value
    id: str
    name: str


@dataclass
class TaskRecord:
    """A generated task before it is written: structure, targets and the spec its proof uses."""

    task_id: str
    variant: str
    question: str
    answers: list[dict[str, Any]]  # the gold records: [{name, entity_id, attributes}]
    targets: list[Target]
    tree: dict[str, Any]
    spec: dict[str, Any]
    trees: list[str] = field(default_factory=list)
    bicliques: list[str] = field(default_factory=list)
    tasks: list[str] = field(default_factory=list)
    clues: list[dict[str, str]] = field(default_factory=list)
    pivots: list[dict[str, str]] = field(default_factory=list)
    status: str = "kept"
    reason: str = ""
    question_source: str = "template"  # or the name of the LLM backend that paraphrased it

    def reject(self, reason: str) -> None:
        self.status, self.reason = "rejected", reason

    def source_tables(self) -> list[str]:
        """The tables the task is built from (Basic: its tree's; Union and Reverse-Union: the
        family's), which decide its held-out split (`seekgraph.synth.split`)."""
        tables = self.spec.get("table_ids") or [self.spec.get("table_id")]
        return sorted({str(t) for t in tables if t})

    def row(self) -> dict[str, Any]:
        kept = self.status == "kept"
        unique_targets = sorted({(t.role, t.kind, t.id) for t in self.targets})
        return {
            "task_id": self.task_id,
            "variant": self.variant,
            "question": self.question,
            "question_source": self.question_source,
            "answer_json": json.dumps(self.answers, ensure_ascii=False),
            "status": self.status,
            "reason": self.reason or None,
            "n_targets": len({t.id for t in self.targets}),
            "split": _split(self.source_tables()),
            "tree_json": json.dumps(self.tree, ensure_ascii=False),
            "spec_json": json.dumps(self.spec, ensure_ascii=False),
            "trees": self.trees,
            "bicliques": self.bicliques,
            "tasks": self.tasks,
            # a rejected task keeps its provenance and reason, not a target set
            "targets": [{"role": r, "kind": k, "id": i} for r, k, i in unique_targets]
            if kept
            else [],
            "clues": self.clues if kept else [],
            "pivots": self.pivots if kept else [],
        }


def _split(tables: list[str]) -> str | None:
    split = split_of_sources(tables, [], HELDOUT_PERCENT)
    return None if split == NONE else split


# relations that say where a row's thing is: one unlinked name at two different places in two
# tables is two things ("Bowscale Tarn" of Marlborough and of the Hurunui District; two
# unlinked "John Smith"s of two nationalities)
PLACE_RELATIONS = tuple(
    sorted(PLACE_HEADERS | {"country", "nationality", "district", "region", "province", "state"})
)


def placed_apart(entity_id: str, facts: list[dict[str, Any]]) -> bool:
    """Whether an unlinked entity has a place (`PLACE_RELATIONS`) in two tables of `facts`
    (rows of ``leaper/find_entity_facts``) and the places differ: two things of one name.

    >>> facts = [{"entity_id": "unlinked:fish lake", "relation": "location", "table_id": t,
    ...     "id": p} for t, p in [("marlborough", "/wiki/Marlborough"), ("canterbury", "/wiki/Hurunui")]]
    >>> placed_apart("unlinked:fish lake", facts), placed_apart("/wiki/Fish_Lake", facts)
    (True, False)
    """
    if not entity_id.startswith("unlinked:"):
        return False
    places: dict[str, dict[str, set[str]]] = {}
    for f in facts:
        if f["entity_id"] == entity_id and f["relation"] in PLACE_RELATIONS:
            places.setdefault(f["relation"], {}).setdefault(f["table_id"], set()).add(f["id"])
    # as ``leaper/prove_union_answers`` reads it: a place one table gives that a later table
    # (by id) giving that relation does not
    return any(
        bool(by_table[a] - by_table[b])
        for by_table in places.values()
        for a in by_table
        for b in by_table
        if a < b
    )


def existing_task_ids(driver: neo4j.Driver, database: str | None, task_ids: list[str]) -> set[str]:
    """Which of `task_ids` are already in the graph (kept or rejected): a re-run skips them."""
    found: set[str] = set()
    for batch in cypher.batched(task_ids, 5000):
        rows = cypher.read(driver, "leaper/find_existing_tasks", database=database, task_ids=batch)
        found.update(r["task_id"] for r in rows)
    return found


def write_tasks(
    driver: neo4j.Driver, database: str | None, tasks: list[TaskRecord], config: LeaperConfig
) -> int:
    """MERGE tasks with provenance and targets; idempotent."""
    rows = [t.row() for t in tasks]
    return cypher.run_batches(
        driver, "leaper/merge_tasks", rows, database=database, batch_size=config.batch_size
    )


def cut_long_question(task: TaskRecord, limit: int) -> None:
    """A question longer than `limit` characters (a Union over a dozen tables names each one)
    is no question to hand an agent, and past a few thousand bytes the graph cannot index it:
    the task is rejected ``question_too_long`` (if kept) and its question stored cut.

    >>> t = TaskRecord("t", "union", "Which " + "x" * 200 + "?", [], [], {}, {})
    >>> cut_long_question(t, 100); (t.status, t.reason, len(t.question))
    ('rejected', 'question_too_long', 100)
    """
    if len(task.question) <= limit:
        return
    if task.status == "kept":
        task.reject("question_too_long")
    task.question = task.question[: limit - 1] + "…"


def reject_duplicate_questions(
    driver: neo4j.Driver, database: str | None, tasks: list[TaskRecord]
) -> None:
    """A kept task whose question another kept task (in the graph or earlier in `tasks`) already
    asks is rejected ``duplicate_question``: one question, one answer."""
    kept = [t for t in tasks if t.status == "kept"]
    taken = {
        r["question"]
        for r in cypher.read(
            driver,
            "leaper/find_task_questions",
            database=database,
            questions=[t.question for t in kept],
            task_ids=[t.task_id for t in kept],
        )
    }
    for task in kept:
        if task.question in taken:
            task.reject("duplicate_question")
        taken.add(task.question)


def record_tasks(
    driver: neo4j.Driver,
    database: str | None,
    tasks: list[TaskRecord],
    config: LeaperConfig,
    report: StageReport,
) -> None:
    """Write proven tasks, kept and rejected, and count each in the stage report."""
    for task in tasks:
        cut_long_question(task, config.max_question_chars)
    reject_duplicate_questions(driver, database, tasks)
    write_tasks(driver, database, tasks, config)
    for task in tasks:
        if task.status == "kept":
            report.keep()
        else:
            report.reject(task.task_id, task.reason, task.question[:200])


def target_of(role: str, fact: dict[str, Any]) -> Target:
    return Target(role, fact["kind"], fact["id"], fact["name"] or fact["id"])


def _fold(text: str) -> str:
    return " ".join(text.casefold().split())


_COUNT_MARK = re.compile(r"\s*\(\d{1,2}\)$")


def said_value(fact: dict[str, Any]) -> str:
    """How a gold record gives one value: as its cell says it. A linked page's title stands in
    only when the cell says just that title (with an aside: "Louis B. Heller (D)" is
    Louis B. Heller); otherwise the page may be another thing ("Colorado" linking the
    university's basketball team, "Sunderland" linking City of Sunderland) or another name of
    it ("Ferrari" for Scuderia Ferrari), and the row's own words are what it states.

    >>> said_value({"kind": "entity", "name": "Colorado Buffaloes men's basketball",
    ...     "cell_text": "Colorado", "id": "/wiki/Colorado_Buffaloes_men's_basketball"})
    'Colorado'
    >>> said_value({"kind": "entity", "name": "Louis B. Heller", "cell_text": "Louis B. Heller (D)",
    ...     "id": "/wiki/Louis_B._Heller"})
    'Louis B. Heller'
    >>> said_value({"kind": "entity", "name": "Virginia Union Panthers",
    ...     "cell_text": "Virginia Union (2)", "id": "/wiki/Virginia_Union_Panthers"})
    'Virginia Union'
    """
    name = str(fact["name"] or fact["id"])
    text = " ".join(str(fact.get("cell_text") or "").split()).rstrip(",;: ")
    if fact.get("kind") != "entity" or not text or len(text) > 100:
        return name
    text = _COUNT_MARK.sub("", text)  # "Virginia Union (2)": its second title, not its name
    return name if _fold(outside_parentheses(text)) == _fold(name) else text


def split_glued(facts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`facts` with each linked name of a cell that runs several names together standing
    alone: "Natasha Kaplinsky Verona Joseph" (two dancers tied, two links, no separator) gives
    the values "Natasha Kaplinsky" and "Verona Joseph", not one glued string twice. A cell is
    glued when two or more of one row's facts of one relation link pages from the same text,
    the text is their names and nothing else (but a role in parentheses after a name, "Chuck
    Jones Maurice Noble (co-director)"), and nothing separates them (a cell "Paris,
    France" says what it says; "A B C" linking only A and B keeps C, unlinked, in its text).

    >>> cell = {"entity_id": "/wiki/Jive", "relation": "best_dancer", "table_id": "t", "row": 0,
    ...     "kind": "entity", "cell_text": "Natasha Kaplinsky Verona Joseph"}
    >>> facts = [{**cell, "id": "/wiki/N", "name": "Natasha Kaplinsky"},
    ...          {**cell, "id": "/wiki/V", "name": "Verona Joseph"}]
    >>> [said_value(f) for f in split_glued(facts)]
    ['Natasha Kaplinsky', 'Verona Joseph']
    >>> third = [{**f, "cell_text": "Natasha Kaplinsky Verona Joseph Jo Lodge"} for f in facts]
    >>> [said_value(f) for f in split_glued(third)][0]
    'Natasha Kaplinsky Verona Joseph Jo Lodge'
    >>> noted = [{**f, "cell_text": "Natasha Kaplinsky Verona Joseph (co-director)"} for f in facts]
    >>> [said_value(f) for f in split_glued(noted)]
    ['Natasha Kaplinsky', 'Verona Joseph']
    >>> comma = [{**f, "cell_text": "Natasha Kaplinsky, Verona Joseph"} for f in facts]
    >>> [said_value(f) for f in split_glued(comma)]
    ['Natasha Kaplinsky, Verona Joseph', 'Natasha Kaplinsky, Verona Joseph']
    """
    cells: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for f in facts:
        if f.get("kind") == "entity" and f.get("cell_text"):
            key = (f["entity_id"], f["relation"], f.get("table_id"), f.get("row"), f["cell_text"])
            cells.setdefault(key, []).append(f)
    glued: set[int] = set()
    for key, group in cells.items():
        text = _fold(str(key[-1]))
        names = [_fold(str(f.get("name") or "")) for f in group]
        rest = text
        for n in names:
            rest = rest.replace(n, " ") if n else rest
        rest = re.sub(r"\([^()]*\)", " ", rest)  # a role after a name: "(co-director)"
        if (
            len({f["id"] for f in group}) > 1
            and not LIST_SEPARATOR.search(text)
            and all(n and n in text for n in names)
            and not re.search(r"\w", rest)
        ):
            glued.update(id(f) for f in group)
    return [{**f, "cell_text": f.get("name")} if id(f) in glued else f for f in facts]


def _number_key(text: str) -> str:
    """A value as compared with the same value of another table: a number (or a year) as
    ingest reads it (`typed_value`: no thousands separators), any other text as it is.

    >>> _number_key("15,000") == _number_key("15000"), _number_key("1,5 km")
    (True, '1,5 km')
    >>> _number_key("1,000") == _number_key("1000")
    True
    """
    kind, normalized = typed_value(text)
    return f"number:{normalized}" if kind in ("number", "year") else text


def answer_records(
    answers: list[tuple[str, str]],
    facts: list[dict[str, Any]],
    relations: list[str],
    tables: dict[str, str] | None = None,
) -> list[dict[str, Any]]:
    """The gold records: each answer ``(entity id, name)`` with its values under `relations`
    (from `facts`, rows of ``leaper/find_entity_facts``), values sorted by name.

    With `tables` (table id -> how the question names it) and facts from more than one table,
    each record also says where each value comes from (``sources``: relation -> value -> the
    tables stating it): a Union record that lists "passengers: 12,782,167, 6,531,927" must say
    which year's table gave which.

    >>> answer_records([("/wiki/A", "A")], [{"entity_id": "/wiki/A", "relation": "year",
    ...     "name": "1980", "id": "year:1980", "kind": "value"}], ["year"])
    [{'name': 'A', 'entity_id': '/wiki/A', 'attributes': {'year': ['1980']}}]
    >>> [r["name"] for r in answer_records([("/wiki/G_(1997)", "G"), ("/wiki/G_(1998)", "G")],
    ...     [], ["year"])]
    ['G (1997)', 'G (1998)']
    >>> answer_records([("/wiki/A", "A")], [{"entity_id": "/wiki/A", "relation": "year",
    ...     "name": y, "table_id": t} for y, t in (("1980", "t1"), ("1983", "t2"))], ["year"],
    ...     {"t1": "Booker", "t2": "Nobel"})[0]["sources"]
    {'year': {'1980': ['Booker'], '1983': ['Nobel']}}
    >>> answer_records([("/wiki/A", "A")], [{"entity_id": "/wiki/A", "relation": "seats",
    ...     "name": n, "table_id": t} for n, t in (("15000", "t1"), ("15,000", "t2"))], ["seats"],
    ...     {"t1": "2008", "t2": "2009"})[0]["sources"]
    {'seats': {'15,000': ['2008', '2009']}}

    An entity in several rows of one table also gets its values row by row (``rows``):

    >>> answer_records([("/wiki/A", "A")], [{"entity_id": "/wiki/A", "relation": r, "name": v,
    ...     "table_id": "t", "row": row} for r, v, row in (("year", "1980", 0), ("club", "X", 0),
    ...     ("year", "1983", 4), ("club", "Y", 4))], ["year", "club"])[0]["rows"]
    [{'table': 't', 'attributes': {'club': ['X'], 'year': ['1980']}}, {'table': 't', \
'attributes': {'club': ['Y'], 'year': ['1983']}}]
    """
    values: dict[str, dict[str, set[str]]] = {}
    sources: dict[str, dict[str, dict[str, set[str]]]] = {}
    facts = split_glued(facts)
    # one number written two ways by two tables ("15,000" and "15000") is one value
    spelled: dict[tuple[str, str, str], str] = {}
    for f in facts:
        if f["relation"] in relations:
            name = said_value(f)
            key = (f["entity_id"], f["relation"], _number_key(name))
            spelled[key] = max(spelled.get(key, name), name, key=lambda n: (len(n), n))
    for f in facts:
        if f["relation"] in relations:
            name = spelled[(f["entity_id"], f["relation"], _number_key(said_value(f)))]
            values.setdefault(f["entity_id"], {}).setdefault(f["relation"], set()).add(name)
            if tables and f.get("table_id") in tables:
                by_value = sources.setdefault(f["entity_id"], {}).setdefault(f["relation"], {})
                by_value.setdefault(name, set()).add(tables[f["table_id"]])
    several = len({f.get("table_id") for f in facts if f["relation"] in relations}) > 1
    by_row = _values_by_row(facts, relations)
    records = []
    shared = Counter(name for _, name in answers)
    for eid, name in answers:
        if shared[name] > 1 and eid.startswith("/wiki/"):
            # two answers named alike ("Guerra de Titanes" of 1997 and of 1998): the page's
            # whole title, disambiguator included, tells them apart
            name = eid.removeprefix("/wiki/").replace("_", " ")
        record: dict[str, Any] = {
            "name": name,
            "entity_id": eid,
            "attributes": {
                r: sorted(values.get(eid, {}).get(r, set()))
                for r in relations
                if values.get(eid, {}).get(r)
            },
        }
        rows = by_row.get(eid, {})
        if len(rows) > len({table for table, _ in rows}):  # several rows of one table
            record["rows"] = [
                {"table": (tables or {}).get(table, table), "attributes": values}
                for (table, _), values in sorted(rows.items(), key=lambda kv: (kv[0][0], kv[0][1]))
            ]
        if tables and several:
            record["sources"] = {
                r: {v: sorted(t) for v, t in sorted(by_value.items())}
                for r, by_value in sorted(sources.get(eid, {}).items())
            }
        records.append(record)
    return records


def _values_by_row(
    facts: list[dict[str, Any]], relations: list[str]
) -> dict[str, dict[tuple[str, int], dict[str, list[str]]]]:
    """entity -> (table, row) -> relation -> values: the asked values row by row, so an entity
    listed in several rows of one table (two editions won, three games under one name) keeps
    which value goes with which."""
    rows: dict[str, dict[tuple[str, int], dict[str, set[str]]]] = {}
    for f in facts:
        if f["relation"] in relations and f.get("row") is not None:
            at = rows.setdefault(f["entity_id"], {}).setdefault((f["table_id"], f["row"]), {})
            at.setdefault(f["relation"], set()).add(said_value(f))
    return {
        e: {k: {r: sorted(v) for r, v in sorted(vals.items())} for k, vals in by.items()}
        for e, by in rows.items()
    }


def held_relations(
    relations: list[str], facts: list[dict[str, Any]], entities: list[str]
) -> list[str]:
    """The relations of `relations` that at least half of `entities` (and at least one) hold a
    value for in `facts`, and whose cells are not mostly prose: a question does not ask for a
    column most answers leave blank, nor for the links inside sentences ("Reason": "Used the
    war as a pretext to ...").

    >>> held_relations(["year", "club"], [{"entity_id": "x", "relation": "year"}], ["x", "y"])
    ['year']
    """
    holders: dict[str, set[str]] = {}
    prose: dict[str, list[bool]] = {}
    glued: dict[str, dict[tuple[Any, ...], bool]] = {}  # relation -> cell -> glued
    for f in facts:
        holders.setdefault(f["relation"], set()).add(f["entity_id"])
        prose.setdefault(f["relation"], []).append(is_prose(f.get("cell_text")))
        cell = (f["entity_id"], f.get("table_id"), f.get("row"), f.get("cell_text") or f.get("id"))
        glued.setdefault(f["relation"], {})[cell] = _glued_cell(f)
    wanted = set(entities)
    return [
        r
        for r in relations
        if len(r.strip("~_")) > 1  # a one-letter header ("P", "G") names nothing
        and (n := len(holders.get(r, set()) & wanted)) > 0
        and 2 * n >= len(wanted)
        and 2 * sum(prose.get(r, [])) < len(prose.get(r, [])) + 1
        and 2 * sum(glued.get(r, {}).values()) < len(glued.get(r, {})) + 1
    ]


def _glued_cell(fact: dict[str, Any]) -> bool:
    """A cell that runs several people's names together ("Kamel Guemar Attallah Djelloul
    Abdelhaziz Belhocine", a cross-country team; linked or not, as "John Hartnett Daniel Murphy
    Eddie Leddy" links two of its three): the names cannot all be told apart, so a column
    mostly of them is not asked (`cell_lists.glued_value`).

    >>> _glued_cell({"kind": "value", "id": "text:x",
    ...     "cell_text": "Kamel Guemar Attallah Djelloul Abdelhaziz Belhocine"})
    True
    >>> _glued_cell({"kind": "value", "id": "text:x", "cell_text": "Royal Society for the Arts"})
    False
    """
    return glued_value(str(fact.get("cell_text") or fact.get("name") or ""))


def is_prose(text: str | None) -> bool:
    """A cell of a sentence or more (over 60 characters and 8 words), not a value."""
    return bool(text) and len(str(text)) > 60 and len(str(text).split()) > 8


def value_kinds(facts: list[dict[str, Any]]) -> dict[str, set[str]]:
    """Per relation, the kinds of its values (entity, year, date, number, text)."""
    kinds: dict[str, set[str]] = {}
    for f in facts:
        kind = "entity" if f["kind"] == "entity" else str(f["id"]).split(":", 1)[0]
        kinds.setdefault(f["relation"], set()).add(kind)
    return kinds


def as_plain(obj: Any) -> Any:
    """Dataclasses to dicts (for the JSON export)."""
    return asdict(obj)
