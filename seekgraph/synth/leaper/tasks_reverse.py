"""Reverse-Union tasks: find one anchor from its own attributes, read its pivot, list the others.

Definition: take a kept Union task over the family of tables ``F`` (all listing one kind of
entity) with common anchors ``I`` and shared relations ``B``; let ``A`` be every anchor of every
table of ``F``.

1. *Pivot.* For a bridge ``b ∈ I`` and a relation ``r ∈ B`` under which ``b`` has exactly one
   value ``p`` in the tables of ``F`` (a single-valued pivot: "find its country" has one
   answer), the answers are ``{a ∈ A \\ {b} : a has r = p in a table of F}``: every other
   entity of those tables sharing the pivot. The (b, r) pairs with the most answers are taken
   first (dense target sets), up to ``bridges_per_union`` tasks with distinct bridges; a pivot
   shared by fewer than ``min_reverse_answers`` others is not used (thin tasks). Only a
   descriptive relation pivots (`seekgraph.synth.leaper.descriptive`: no count, rank, result
   or score).
2. *Deductive fuzz.* The clues describe ``b`` by its own descriptive attributes, all read in
   one row of one table of ``F`` (never under ``r``), most selective first, as few as make
   ``b`` the only entity of the whole graph holding all of them (at most ``max_clues``);
   ``leaper/find_clue_holders`` proves the uniqueness, else the candidate is rejected
   ``clues_not_unique``.

An answer set that holds one thing twice, a linked entity and an unlinked name with the same
code (`named_twice`: "World Food Programme" and "Office of United Nations World Food Program",
both WFP), is rejected ``answer_twice``.

The gold records are the answers with their values under ``B \\ {r}``; targets R = answers
(``answer``) ∪ {b} (``anchor``) ∪ {p} and the answers' values (``attribute``). Pivot and clues
also hang off the task as ``PIVOT`` and ``CLUE`` edges. The proof
(``leaper/prove_reverse_answers``) recomputes the bridge, its single pivot value and the answers
from the source rows.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import neo4j

from seekgraph.graphdb import cypher
from seekgraph.graphdb.ids import stable_id
from seekgraph.graphdb.stages import StageReport
from seekgraph.synth.leaper.common import (
    LeaperConfig,
    Target,
    TaskRecord,
    answer_records,
    held_relations,
    record_tasks,
    target_of,
    value_kinds,
)
from seekgraph.synth.leaper.descriptive import is_descriptive
from seekgraph.synth.leaper.proofs import prove_reverse
from seekgraph.synth.leaper.questions import (
    asked_words,
    paraphrase,
    phrasable,
    relation_values,
    reverse_question,
    table_labels,
    table_ref,
)
from seekgraph.synth.phrasing.attributes import phrase_attribute
from seekgraph.synth.phrasing.tables import TableRef
from seekgraph.synth.phrasing.words import relation_words, value_kind

if TYPE_CHECKING:
    from seekgraph.common.llm.base import LLMBackend

STAGE = "leaper-reverse"
# a pivot value more of the family's things hold than this share of those with any value under
# its relation selects nothing worth asking ("the same surface": grass, 29 teams of 30)
MOST_SHARE = 0.8


def nameable(relation: str) -> bool:
    """A relation a clue or pivot can name: a word of two letters or more ("country", "OWGR
    points"), not a bare year or a one-letter column ("2009", "L")."""
    return re.search(r"[^\W\d_]{2,}", relation_words(relation)) is not None


def choose_clues(
    driver: neo4j.Driver,
    database: str | None,
    bridge: str,
    candidates: list[dict[str, Any]],
    max_clues: int,
) -> list[dict[str, Any]] | None:
    """The shortest prefix (by selectivity) of `candidates` that only `bridge` holds, or None."""
    if not candidates:
        return None
    keyed = [{"relation": c["relation"], "kind": c["kind"], "id": c["id"]} for c in candidates]
    counts = {
        (r["relation"], r["id"]): r["holders"]
        for r in cypher.read(driver, "leaper/count_fact_holders", database=database, clues=keyed)
    }
    ranked = sorted(
        candidates, key=lambda c: (counts.get((c["relation"], c["id"]), 0), c["relation"], c["id"])
    )
    chosen: list[dict[str, Any]] = []
    for cand in ranked:
        if any(c["relation"] == cand["relation"] for c in chosen):
            continue
        chosen.append(cand)
        holders = cypher.read(
            driver,
            "leaper/find_clue_holders",
            database=database,
            limit=2,
            clues=[{"relation": c["relation"], "kind": c["kind"], "id": c["id"]} for c in chosen],
        )
        if holders and holders[0]["holders"] == [bridge]:
            return chosen
        if len(chosen) >= max_clues:
            return None
    return None


@dataclass
class _Union:
    """A kept Union task, read back with every fact of its tables' anchors in those tables."""

    task_id: str
    tree: dict[str, Any]
    table_ids: list[str]
    relations: list[str]
    tables: list[TableRef]
    kind: str
    kind_plural: str
    common: list[str]  # the union's answers: the bridge candidates
    names: dict[str, str]  # entity id -> name, every anchor of the family
    facts: list[dict[str, Any]]  # every anchor's facts in the family's tables
    labels: dict[str, str]  # relation -> how the family's tables name it
    table_names: dict[str, str]  # table id -> how the question names it
    _descriptive: dict[str, bool] = field(default_factory=dict, repr=False)

    def values(self, entity: str, relation: str) -> set[tuple[str, str, str]]:
        """(kind, id, name) of the entity's values under `relation`."""
        return {
            (f["kind"], f["id"], f["name"])
            for f in self.facts
            if f["entity_id"] == entity and f["relation"] == relation
        }

    def descriptive(self, relation: str) -> bool:
        """Whether `relation` describes the family's things (not a count, rank, result or
        score, nor notes), judged by its header and every value it holds in the family's
        tables."""
        if relation in self._descriptive:
            return self._descriptive[relation]
        values = [
            (value_kind(str(f["id"]), f["kind"] == "entity"), str(f["name"] or f["id"]))
            for f in self.facts
            if f["relation"] == relation
        ]
        words = self.labels.get(relation) or relation_words(relation)
        kinds = [kind for kind, _ in values]
        said = phrase_attribute(words, kinds, [name for _, name in values]).text
        # a clue or pivot is said as "whose X is" and "its X": a noun phrase of its own ("their
        # degree"), never notes, an unexplained abbreviation ("CERO") or a clause
        own = said.startswith(("their ", "the title of their "))  # a work's title is its own
        self._descriptive[relation] = own and is_descriptive(words, values)
        return self._descriptive[relation]

    def holders(self, relation: str, value: str) -> set[str]:
        return {
            f["entity_id"] for f in self.facts if f["relation"] == relation and f["id"] == value
        }

    def names_a_subject(self, value_name: str) -> bool:
        """Whether a value is what one of the family's tables is about, named in its title
        ("Kansas City Chiefs" of "2011 Kansas City Chiefs season"): "the same 2010 team" as
        one of the Chiefs' own signings lists the table back, it checks nothing.

        >>> union = _Union("t", {}, [], [], [TableRef("2011 Kansas City Chiefs season")], "",
        ...     "", [], {}, [], {}, {})
        >>> union.names_a_subject("Kansas City Chiefs"), union.names_a_subject("Denver Broncos")
        (True, False)
        """
        name = " ".join(value_name.casefold().split())
        return len(name) > 3 and any(
            re.search(rf"(?<!\w){re.escape(name)}(?!\w)", " ".join(t.title.casefold().split()))
            for t in self.tables
        )

    def shared_by_most(self, relation: str, value: str) -> bool:
        """Whether more than `MOST_SHARE` of the things with a value under `relation` hold
        this one: "the same field" of football teams that nearly all play on grass lists
        the family back, it checks nothing."""
        holding = {f["entity_id"] for f in self.facts if f["relation"] == relation}
        return len(self.holders(relation, value)) > MOST_SHARE * len(holding)


def read_union(driver: neo4j.Driver, database: str | None, union: dict[str, Any]) -> _Union:
    """A Union task row (``leaper/find_leaper_tasks``) with its family's facts."""
    tree = json.loads(union["tree_json"])
    spec = json.loads(union["spec_json"])
    anchors = sorted({e for ids in tree["anchors"].values() for e in ids})
    rows = cypher.read(
        driver, "leaper/find_tree_anchors", database=database, tree_ids=tree["trees"]
    )
    names = {a["id"]: a["name"] for row in rows for a in row["anchors"] if a["id"]}
    facts = cypher.read(
        driver,
        "leaper/find_entity_facts",
        database=database,
        entity_ids=anchors,
        table_ids=spec["table_ids"],
    )
    return _Union(
        task_id=union["task_id"],
        tree=tree,
        table_ids=spec["table_ids"],
        relations=spec["relations"],
        tables=[table_ref(r) for r in rows],
        kind=rows[0]["kind"] if rows else "entry",
        kind_plural=rows[0]["kind_plural"] if rows else "entries",
        common=sorted(a["entity_id"] for a in json.loads(union["answer_json"])),
        names=names,
        facts=facts,
        labels=table_labels(h for r in rows for h in r.get("headers") or []),
        table_names={r["table_id"]: table_ref(r).quoted(marks=False) for r in rows},
    )


def _names_a_value(fact: dict[str, Any]) -> bool:
    """Whether a fact's value is short enough to be a clue: a name or a few words, not a
    description ("Some Melbourne Victory matches, some Socceroos matches")."""
    text = str(fact.get("name") or fact.get("id") or "")
    return fact.get("kind") == "entity" or (len(text.split()) <= 5 and not re.search(r"[,;]", text))


def row_clues(
    driver: neo4j.Driver,
    database: str | None,
    union: _Union,
    bridge: str,
    pivot_relation: str,
    max_clues: int,
) -> list[dict[str, Any]] | None:
    """Clues that single out `bridge`, all read in one row of one of the family's tables
    (the first row, in table and row order, whose descriptive values suffice), or None.

    Clues from two rows ("the author whose year is 1980 and whose country is Nigeria", each
    true of a different win) describe no row a reader can find; counts, ranks, results and
    scores describe no thing (`_Union.descriptive`).
    """
    facts = cypher.read(
        driver,
        "leaper/find_entity_row_facts",
        database=database,
        entity_id=bridge,
        table_ids=union.table_ids,
    )
    rows: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for f in facts:
        if f["relation"] == pivot_relation or not nameable(f["relation"]):
            continue
        if union.descriptive(f["relation"]) and _names_a_value(f):
            rows.setdefault((f["table_id"], f["row"]), []).append(f)
    for row_facts in rows.values():
        clues = choose_clues(driver, database, bridge, row_facts, max_clues)
        if clues is not None:
            return clues
    return None


def pivot_candidates(union: _Union) -> list[tuple[int, str, str, tuple[str, str, str]]]:
    """``(answers, bridge, relation, (kind, value id, value name))`` for every bridge and every
    shared relation under which it has one value, densest first. Only descriptive relations
    pivot (`is_descriptive`): "the same country", never "the same points"; and only a value
    that selects: not one nearly every thing of the family holds (`_Union.shared_by_most`), nor
    what a table of the family is about (`_Union.names_a_subject`)."""
    out = []
    pivots = [r for r in union.relations if nameable(r) and union.descriptive(r)]
    for bridge in union.common:
        for relation in pivots:
            values = union.values(bridge, relation)
            if len(values) != 1:
                continue
            (value,) = values
            if union.shared_by_most(relation, value[1]) or union.names_a_subject(value[2]):
                continue
            answers = len(union.holders(relation, value[1]) - {bridge})
            out.append((answers, bridge, relation, value))
    return sorted(out, key=lambda c: (-c[0], c[1], c[2], c[3][1]))


def reverse_tasks_for(
    driver: neo4j.Driver,
    database: str | None,
    union: dict[str, Any],
    config: LeaperConfig,
    backend: LLMBackend | None = None,
) -> list[TaskRecord]:
    """Up to `bridges_per_union` Reverse-Union tasks of one kept Union task (distinct bridges,
    densest first); a union without a usable pivot gives one ``no_pivot`` rejection."""
    context = read_union(driver, database, union)
    out: list[TaskRecord] = []
    used: set[str] = set()
    for n_answers, bridge, relation, pivot in pivot_candidates(context):
        if bridge in used or n_answers < config.min_reverse_answers:
            continue
        used.add(bridge)
        out.append(
            _bridge_task(driver, database, context, bridge, relation, pivot, config, backend)
        )
        if len(out) >= config.bridges_per_union:
            break
    if not out:
        rejected = TaskRecord(
            task_id=stable_id("leaper-reverse", union["task_id"]),
            variant="reverse-union",
            question="",
            answers=[],
            targets=[],
            tree={},
            spec={},
            trees=context.tree["trees"],
            tasks=[union["task_id"]],
        )
        rejected.reject("no_pivot")
        out.append(rejected)
    return out


def _bridge_task(
    driver: neo4j.Driver,
    database: str | None,
    union: _Union,
    bridge: str,
    relation: str,
    pivot: tuple[str, str, str],
    config: LeaperConfig,
    backend: LLMBackend | None,
) -> TaskRecord:
    """The task of one bridge and pivot: clues from its own rows, answers, records, R."""
    clues = row_clues(driver, database, union, bridge, relation, config.max_clues)
    answers = sorted(union.holders(relation, pivot[1]) - {bridge})
    shared = [r for r in union.relations if r != relation]
    facts = [f for f in union.facts if f["entity_id"] in set(answers) and f["relation"] in shared]
    asked = held_relations(shared, facts, answers)
    held = [f for f in facts if f["relation"] in asked]
    asked, _ = phrasable(asked, value_kinds(held), relation_values(held), union.labels)
    facts = [f for f in facts if f["relation"] in asked]
    chosen = clues or []
    question, source = "", "template"
    if clues:
        described = [
            (c["relation"], c["name"], value_kind(c["id"], c["kind"] == "entity")) for c in chosen
        ]
        template = reverse_question(
            union.tables,
            union.kind,
            union.kind_plural,
            described,
            relation,
            asked,
            value_kinds(facts),
            union.labels,
            relation_values(facts),
        )
        keep = [c["name"] for c in chosen] + asked_words([relation, *asked], union.labels)
        question, source = paraphrase(template, backend, keep)
    kind, pivot_id, pivot_name = pivot
    task = TaskRecord(
        task_id=stable_id("leaper-reverse", union.task_id, bridge, relation),
        variant="reverse-union",
        question=question,
        question_source=source,
        answers=answer_records(
            [(e, union.names.get(e, e)) for e in answers], facts, asked, union.table_names
        ),
        targets=[Target("answer", "entity", e, union.names.get(e, e)) for e in answers]
        + [Target("anchor", "entity", bridge, union.names.get(bridge, bridge))]
        + [Target("attribute", kind, pivot_id, pivot_name)]
        + [target_of("attribute", f) for f in facts],
        tree={
            "roots": union.tree["roots"],
            "trees": union.tree["trees"],
            "kind": union.kind,
            "bridge": bridge,
            "pivot": {"relation": relation, "id": pivot_id, "name": pivot_name},
            "clues": [
                {"relation": c["relation"], "id": c["id"], "name": c["name"]} for c in chosen
            ],
            "relations": asked,
        },
        spec={
            "bridge": bridge,
            "table_ids": union.table_ids,
            "pivot_relation": relation,
            "pivot_id": pivot_id,
            "clues": [
                {"relation": c["relation"], "kind": c["kind"], "id": c["id"]} for c in chosen
            ],
        },
        trees=union.tree["trees"],
        tasks=[union.task_id],
        clues=[{"id": c["id"]} for c in chosen],
        pivots=[{"id": pivot_id}],
    )
    twins = named_twice(union.facts, answers)
    if clues is None:
        task.reject("clues_not_unique")
    elif not answers:
        task.reject("empty_answer")
    elif twins:
        task.reject("answer_twice")  # one agency under two names
    elif len({t.id for t in task.targets}) > config.max_targets:
        task.reject("too_large")
    return task


# relations whose value names one thing alone: two rows with one acronym are one agency
_CODES = frozenset(["acronym", "acronyms", "abbreviation", "code", "iata", "icao", "symbol"])


def named_twice(facts: list[dict[str, Any]], answers: list[str]) -> tuple[str, str] | tuple[()]:
    """Two answers, one of them unlinked, with the same code (`_CODES`): one thing listed
    under two names ("World Food Programme" and the unlinked "Office of United Nations World
    Food Program", both WFP), which no answer set may count twice.

    >>> facts = [{"entity_id": e, "relation": "acronym", "id": "text:wfp"}
    ...          for e in ("/wiki/World_Food_Programme", "unlinked:office of wfp")]
    >>> named_twice(facts, ["/wiki/World_Food_Programme", "unlinked:office of wfp"])
    ('/wiki/World_Food_Programme', 'unlinked:office of wfp')
    >>> named_twice(facts, ["/wiki/World_Food_Programme"])
    ()
    """
    holders: dict[str, list[str]] = {}
    chosen = set(answers)
    for f in facts:
        if f["relation"] in _CODES and f["entity_id"] in chosen:
            said = holders.setdefault(f["id"], [])
            if f["entity_id"] not in said:
                said.append(f["entity_id"])
    for said in holders.values():
        loose = [e for e in said if e.startswith("unlinked:")]
        if len(said) > 1 and loose:
            return (next(e for e in said if e != loose[0]), loose[0])
    return ()


def build_reverse_tasks(
    driver: neo4j.Driver,
    database: str | None,
    config: LeaperConfig,
    backend: LLMBackend | None = None,
    progress: Callable[[int], None] | None = None,
) -> StageReport:
    """Reverse-Union tasks from every kept Union task; a union that already has its
    Reverse-Union tasks (kept or rejected) is skipped (resumable)."""
    report = StageReport(STAGE)
    unions = cypher.read(driver, "leaper/find_leaper_tasks", database=database, variants=["union"])
    done = {
        r["task_id"] for r in cypher.read(driver, "leaper/find_reversed_unions", database=database)
    }
    for batch in cypher.batched(unions, config.batch_size):
        tasks: list[TaskRecord] = []
        for union in batch:
            if union["task_id"] in done:
                report.skip()
                continue
            tasks += reverse_tasks_for(driver, database, union, config, backend)
        prove_reverse(driver, database, [t for t in tasks if t.status == "kept"])
        record_tasks(driver, database, tasks, config, report)
        if progress is not None:
            progress(len(batch))
    return report.finish()
