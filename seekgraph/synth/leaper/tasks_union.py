"""Union tasks: the trees of one maximal biclique, merged on the entities they all contain.

Search units: the trees are split into topic groups (`seekgraph.synth.leaper.topics.topic_groups`:
components of the root-similarity graph at ``threshold``, re-split at stricter thresholds while
larger than ``max_group_trees``), keeping in a group only the trees that share an anchor with
another tree of it. Maximal bicliques are enumerated inside each group (a batch of groups at
once, by the graph), and each group is written as a ``TopicGroup`` with its bicliques and
tasks before the next batch starts.

Definition: for a maximal biclique ``(A, B)`` of a group's tree × relation graph (trees ``A``
sharing relations ``B``; see `seekgraph.synth.leaper.bicliques`), let
``S_t`` be the anchor set of tree ``t``. Since a large ``A`` rarely has a common anchor, the task
uses the sub-family ``F ⊆ A`` chosen by `select_family`: the pair with the largest common anchor
set (ties by id), extended greedily (most common anchors first) by every tree that keeps at least
``min(2, |I|)`` common anchors. ``F`` still shares ``B``. The task asks for
``I = ∩_{t∈F} S_t`` — the entities that appear as anchors in every tree of ``F`` — and, for each,
its values under ``B`` from the tables of ``F``. Targets R = ``I`` (role ``answer``) ∪
``⋃_{t∈F} S_t`` (role ``anchor``: the intermediate per-tree sets an agent must collect to
intersect them) ∪ the answers' values (role ``attribute``). Two trees whose anchor sets overlap
more than ``max_anchor_overlap`` (Jaccard) are copies of one list and never form ``F`` together.
Rejected: no two trees of ``A`` share an anchor (``empty_answer``), only copies do
(``near_duplicate_trees``), ``|R| > max_targets`` (``too_large``), or a proof mismatch.

Example: Nobel laureates in Literature and Booker Prize winners share ``{nationality, year}``;
``I`` = the authors who won both (Golding, Gordimer, Coetzee, Naipaul, Ishiguro).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

import neo4j

from seekgraph.graphdb import cypher
from seekgraph.graphdb.ids import stable_id
from seekgraph.graphdb.stages import StageReport
from seekgraph.synth.ingest.unlinked import UNLINKED
from seekgraph.synth.leaper.bicliques import Biclique, maximal_bicliques_cypher_groups
from seekgraph.synth.leaper.common import (
    LeaperConfig,
    Target,
    TaskRecord,
    answer_records,
    existing_task_ids,
    held_relations,
    record_tasks,
    target_of,
    value_kinds,
)
from seekgraph.synth.leaper.proofs import prove_union
from seekgraph.synth.leaper.questions import (
    asked_words,
    paraphrase,
    phrasable,
    relation_values,
    table_labels,
    table_ref,
    union_question,
)
from seekgraph.synth.leaper.topics import EMBEDDER, Method, TopicGroup, topic_groups

if TYPE_CHECKING:
    from seekgraph.common.llm.base import LLMBackend

STAGE = "leaper-union"


def find_topic_groups(
    driver: neo4j.Driver,
    database: str | None,
    config: LeaperConfig,
    report: StageReport,
    trees: list[dict[str, Any]],
) -> list[TopicGroup]:
    """Groups of related trees to search (largest first); groups too large are rejected.

    Only trees sharing an anchor with another tree of their group are kept in it
    (``leaper/find_anchor_sharing_trees``): a biclique of the others could only give a Union
    task with an empty answer. `trees`: rows of ``leaper/find_trees``.
    """

    groups, too_large = _recorded_grouping(driver, database, config, trees)
    for group in too_large:
        report.reject(
            f"topic-group:{group.group_id}",
            "group_too_large",
            f"{len(group.trees)} trees with identical roots (> max_group_trees "
            f"{config.max_group_trees}), first {group.trees[0]}",
        )
    report.notes["topic groups"] = len(groups)
    report.notes["trees in topic groups"] = sum(len(g.trees) for g in groups)
    return groups


def _recorded_grouping(
    driver: neo4j.Driver,
    database: str | None,
    config: LeaperConfig,
    trees: list[dict[str, Any]],
) -> tuple[list[TopicGroup], list[TopicGroup]]:
    """`topic_groups` of the trees, memoised in the graph by a digest of its inputs.

    The grouping is a pure function of the trees' ids, roots and anchors and of the grouping
    settings, but computing it embeds every root (a model load of 10-20 s in a new process).
    A re-run over unchanged trees (every resumed pipeline passes this stage) reads the
    recorded grouping instead; any change of trees or settings gives a new digest.
    """
    anchors = {
        r["tree_id"]: r["anchors"]
        for r in cypher.read(driver, "leaper/find_anchor_ids_by_tree", database=database)
    }
    digest = stable_id(
        "topic-grouping",
        {
            "trees": [
                [t["tree_id"], t["root"] or "", anchors.get(t["tree_id"], [])] for t in trees
            ],
            "similarity": config.similarity,
            "threshold": config.threshold,
            "max_group_trees": config.max_group_trees,
            "threshold_step": config.threshold_step,
            "min_trees": config.min_trees,
            "embedder": EMBEDDER.name,  # "all-MiniLM-L6-v2", as before there were backends
        },
        length=32,
    )
    recorded = cypher.read(driver, "leaper/find_topic_grouping", database=database, digest=digest)
    if recorded:
        return (
            _groups_from_json(recorded[0]["groups_json"]),
            _groups_from_json(recorded[0]["too_large_json"]),
        )

    def sharing(tree_ids: list[str]) -> list[str]:
        rows = cypher.read(
            driver, "leaper/find_anchor_sharing_trees", database=database, tree_ids=tree_ids
        )
        return [r["tree_id"] for r in rows]

    groups, too_large = topic_groups(
        [t["tree_id"] for t in trees],
        [t["root"] or "" for t in trees],
        threshold=config.threshold,
        max_size=config.max_group_trees,
        step=config.threshold_step,
        min_size=config.min_trees,
        method=cast(Method, config.similarity),
        keep=sharing,
    )
    cypher.write(
        driver,
        "leaper/merge_topic_grouping",
        database=database,
        digest=digest,
        groups_json=_groups_to_json(groups),
        too_large_json=_groups_to_json(too_large),
    )
    return groups, too_large


def _groups_to_json(groups: list[TopicGroup]) -> str:
    return json.dumps([[list(g.trees), g.threshold] for g in groups])


def _groups_from_json(text: str) -> list[TopicGroup]:
    return [TopicGroup(tuple(trees), float(threshold)) for trees, threshold in json.loads(text)]


def _write_groups(
    driver: neo4j.Driver, database: str | None, groups: list[tuple[TopicGroup, str, int]]
) -> None:
    """Topic groups with their status and number of bicliques (one batched write)."""
    rows = [
        {
            "group_id": group.group_id,
            "trees": list(group.trees),
            "threshold": group.threshold,
            "status": status,
            "n_bicliques": n,
        }
        for group, status, n in groups
    ]
    cypher.run_batches(driver, "leaper/merge_topic_groups", rows, database=database)


def jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def select_family(
    anchor_sets: dict[str, set[str]],
    max_overlap: float = 1.0,
    kinds: dict[str, str] | None = None,
    tables: dict[str, str] | None = None,
) -> list[str]:
    """The trees of a biclique a Union task intersects (see the module docstring).

    Two trees whose anchor sets overlap more than `max_overlap` (Jaccard) are copies of one list
    (the same table twice, or a year's table and its update): their intersection asks nothing,
    so such a pair is never taken together. With `kinds` (tree → the kind of entity its key
    column lists, `seekgraph.synth.phrasing.header_kind.entity_kind`), a tree of the generic
    kind ``entry`` joins no family: the question must name what it asks for in every table.
    (Key columns headed differently, "Laureate" and "Author", hold the same kind of entity when
    they share anchors, which every family does; the question then names each table's kind.)
    With `tables` (tree → how the question names its table), two trees a question would name
    alike (same title and section) are never taken together: the question could not tell them
    apart.

    >>> select_family({"a": {"x", "y"}, "b": {"x", "y", "z"}, "c": {"x"}, "d": {"q"}})
    ['a', 'b']
    >>> select_family({"a": {"x", "y"}, "b": {"x", "y", "z"}, "c": {"x"}}, max_overlap=0.6)
    ['a', 'c']
    >>> select_family({"a": {"x"}, "b": {"x"}}, kinds={"a": "author", "b": "entry"})
    []
    """
    ids = sorted(anchor_sets)

    def fits(a: str, b: str) -> bool:
        if kinds is not None and "entry" in (kinds[a], kinds[b]):
            return False
        if tables is not None and tables[a] == tables[b]:
            return False
        return jaccard(anchor_sets[a], anchor_sets[b]) <= max_overlap

    best: tuple[int, str, str] | None = None
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            n = len(anchor_sets[a] & anchor_sets[b])
            if n and fits(a, b) and (best is None or n > best[0]):
                best = (n, a, b)
    if best is None:
        return []
    family = [best[1], best[2]]
    common = anchor_sets[best[1]] & anchor_sets[best[2]]
    rest = sorted(
        (t for t in ids if t not in family), key=lambda t: (-len(common & anchor_sets[t]), t)
    )
    for t in rest:
        if len(common & anchor_sets[t]) >= min(2, len(common)) and all(fits(t, f) for f in family):
            family.append(t)
            common = common & anchor_sets[t]
    return sorted(family)


def _anchor_sets(trees: list[dict[str, Any]]) -> dict[str, set[str]]:
    return {t["tree_id"]: {a["id"] for a in t["anchors"] if a["id"]} for t in trees}


# the last part of a section that is a letter or a range of letters: "A", "C", "Q–R", "0-9"
_LETTERS = re.compile(r"^(?:[A-Z0-9]|[A-Z0-9]\s*[–-]\s*[A-Z0-9])$")


def _family_name(tree: dict[str, Any]) -> str:
    """How `select_family` tells tables apart: as a question names them, except that the
    parts of one alphabetical list ("List of post-grunge bands", sections "A" and "C") are one
    list: a band under both letters is a slip of the article, not an answer.

    >>> _family_name({"title": "Bands", "section_title": "C"})
    'Bands (an alphabetical part)'
    """
    section = str(tree.get("section_title") or "").split(" -- ")[-1].strip()
    if _LETTERS.match(section):
        return f"{tree.get('title') or tree.get('root')} (an alphabetical part)"
    return table_ref(tree).quoted()


def family_id(family: list[str]) -> str:
    """A Union task is one per family of trees, whichever biclique found it first."""
    return stable_id("leaper-union", sorted(family))


# what numbers an article of a series: a year or season ("2011–12"), an ordinal, a number, a
# Roman numeral ("Super League XVIII")
_NUMBERING = re.compile(r"\b(?:\d{4}(?:[–-]\d{2,4})?|\d+(?:st|nd|rd|th)?|[IVXLC]+)\b")


def series_of(title: str) -> str:
    """The series an article belongs to: its title without what numbers it.

    >>> series_of("1948 Campeonato Profesional") == series_of("1952 Campeonato Profesional")
    True
    >>> series_of("Super League XVIII"), series_of("Media in Moncton")
    ('super league', 'media in moncton')
    """
    return " ".join(_NUMBERING.sub(" ", title).lower().split())


def union_task(
    biclique: Biclique,
    trees: list[dict[str, Any]],
    family: list[str],
    facts: list[dict[str, Any]],
    backend: LLMBackend | None = None,
) -> TaskRecord:
    """The Union task of a biclique over the chosen `family` of its trees (`trees` from
    leaper/find_tree_anchors; `facts`: the answers' values in the family's tables). Without a
    family it is rejected: ``near_duplicate_trees`` when only copies of one list share
    anchors, ``generic_kind`` when only trees whose kind has no name do, else
    ``empty_answer``."""
    by_id = {t["tree_id"]: t for t in trees}
    sets = _anchor_sets(trees)
    chosen = [by_id[t] for t in family] if family else sorted(trees, key=lambda t: t["tree_id"])
    anchor_sets = [sets[t["tree_id"]] for t in chosen]
    names = {a["id"]: a["name"] for t in chosen for a in t["anchors"] if a["id"]}
    common = sorted(set.intersection(*anchor_sets)) if family else []
    one_series = len({series_of(str(t.get("title") or "")) for t in chosen}) == 1
    if not one_series:
        # an unlinked name is one thing only within one article, or one series of articles
        # (seasons of a league): two articles' "St Wilfrid's Church" are two churches, the
        # 1948 and 1952 seasons' "Universidad" one club
        common = [e for e in common if not e.startswith(UNLINKED)]
        facts = [f for f in facts if f["entity_id"] in common]
    relations = list(biclique.relations)
    asked = held_relations(relations, facts, common)
    labels = table_labels(chosen[0].get("headers") or [])
    held = [f for f in facts if f["relation"] in asked]
    asked, _ = phrasable(asked, value_kinds(held), relation_values(held), labels)
    facts = [f for f in facts if f["relation"] in asked]
    targets = [Target("answer", "entity", e, names[e]) for e in common]
    targets += [Target("anchor", "entity", e, names[e]) for e in sorted(set().union(*anchor_sets))]
    targets += [target_of("attribute", f) for f in facts]
    tables = [table_ref(t) for t in chosen]
    table_names = {
        t["table_id"]: ref.quoted(marks=False) for t, ref in zip(chosen, tables, strict=True)
    }
    question, source = paraphrase(
        union_question(
            tables,
            [t["kind_plural"] for t in chosen],
            asked,
            value_kinds(facts),
            labels,
            relation_values(facts),
        ),
        backend,
        asked_words(asked, labels),
    )
    task = TaskRecord(
        task_id=family_id(family) if family else stable_id("leaper-union", biclique.biclique_id),
        variant="union",
        question=question,
        question_source=source,
        answers=answer_records([(e, names[e]) for e in common], facts, asked, table_names),
        targets=targets,
        tree={
            "roots": [t["root"] for t in chosen],
            "kind": chosen[0]["kind"],
            "trees": [t["tree_id"] for t in chosen],
            "biclique_trees": list(biclique.trees),
            "relations": relations,
            "asked": asked,
            "table_ids": [t["table_id"] for t in chosen],
            "anchors": {t["tree_id"]: sorted(s) for t, s in zip(chosen, anchor_sets, strict=True)},
        },
        spec={
            "table_ids": [t["table_id"] for t in chosen],
            "relations": relations,
            "asked": asked,
            "one_series": one_series,
        },
        trees=[t["tree_id"] for t in chosen],
        bicliques=[biclique.biclique_id],
    )
    if not common:
        if select_family(sets):
            kinds = {t["tree_id"]: t["kind"] for t in trees}
            named = select_family(sets, kinds=kinds)
            task.reject("generic_kind" if not named else "near_duplicate_trees")
        else:
            task.reject("empty_answer")
    return task


def build_union_tasks(
    driver: neo4j.Driver,
    database: str | None,
    config: LeaperConfig,
    backend: LLMBackend | None = None,
    progress: Callable[[int], None] | None = None,
) -> StageReport:
    """Per batch of topic groups: enumerate their maximal bicliques, write them and one Union
    task each.

    Groups are searched together, a batch of about `config.batch_size` trees at a time (one
    Cypher query per level of the search for the whole batch). A group is marked ``searched``
    once its bicliques and tasks are written, so a killed run resumes with the groups not yet
    marked; tasks already in the graph are skipped. `progress` counts trees: those of each
    finished batch, then the trees in no group.
    """
    report = StageReport(STAGE)
    trees = cypher.read(driver, "leaper/find_trees", database=database)
    groups = find_topic_groups(driver, database, config, report, trees)
    finished = {
        r["group_id"]: r
        for r in cypher.read(
            driver,
            "leaper/find_searched_topic_groups",
            database=database,
            group_ids=[g.group_id for g in groups],
        )
    }
    n_bicliques = 0
    todo: list[TopicGroup] = []
    for group in groups:
        if group.group_id in finished:
            found = finished[group.group_id]["n_bicliques"] or 0
            n_bicliques += found
            report.skip(found)
            if progress is not None:
                progress(len(group.trees))
        else:
            todo.append(group)
    for batch in _group_batches(todo, config.batch_size):
        n_bicliques += _search_groups(driver, database, config, batch, report, backend)
        if progress is not None:
            progress(sum(len(g.trees) for g in batch))
    if progress is not None:
        progress(len(trees) - sum(len(g.trees) for g in groups))
    report.notes["maximal bicliques"] = n_bicliques
    return report.finish()


def _group_batches(groups: list[TopicGroup], trees: int) -> list[list[TopicGroup]]:
    """Consecutive groups, about `trees` trees a batch (a larger group is a batch alone)."""
    batches: list[list[TopicGroup]] = []
    size = 0
    for group in groups:
        if not batches or size + len(group.trees) > trees:
            batches.append([])
            size = 0
        batches[-1].append(group)
        size += len(group.trees)
    return batches


def _search_groups(
    driver: neo4j.Driver,
    database: str | None,
    config: LeaperConfig,
    groups: list[TopicGroup],
    report: StageReport,
    backend: LLMBackend | None,
) -> int:
    """Enumerate the bicliques of `groups` (Cypher-driven, all at once), write them and their
    tasks, mark each group finished; returns how many bicliques were found."""
    _write_groups(driver, database, [(g, "searching", 0) for g in groups])
    found = maximal_bicliques_cypher_groups(
        driver,
        [list(g.trees) for g in groups],
        database=database,
        min_trees=config.min_trees,
        min_relations=config.min_relations,
        limit=config.max_bicliques,
    )
    status: list[tuple[TopicGroup, str, int]] = []
    rows: list[dict[str, Any]] = []
    bicliques: list[Biclique] = []
    for group, result in zip(groups, found, strict=True):
        if result is None:
            report.reject(
                f"topic-group:{group.group_id}",
                "too_many_bicliques",
                f"more than {config.max_bicliques} maximal bicliques",
            )
            status.append((group, "too_many_bicliques", 0))
            continue
        status.append((group, "searched", len(result)))
        bicliques += result
        rows += [
            {
                "biclique_id": b.biclique_id,
                "trees": list(b.trees),
                "relations": list(b.relations),
                "group_id": group.group_id,
            }
            for b in result
        ]
    cypher.run_batches(
        driver, "leaper/merge_bicliques", rows, database=database, batch_size=config.batch_size
    )
    seen: set[str] = set()
    for batch in cypher.batched(bicliques, config.batch_size):
        _write_union_tasks(driver, database, config, batch, report, backend, seen)
    _write_groups(driver, database, status)
    return len(bicliques)


def _write_union_tasks(
    driver: neo4j.Driver,
    database: str | None,
    config: LeaperConfig,
    batch: list[Biclique],
    report: StageReport,
    backend: LLMBackend | None,
    seen: set[str],
) -> None:
    """One task per family (the first biclique that finds a family makes its task; the others,
    and families already in the graph, are skipped)."""
    tree_ids = sorted({t for b in batch for t in b.trees})
    layers = {
        t["tree_id"]: t
        for t in cypher.read(
            driver, "leaper/find_tree_anchors", database=database, tree_ids=tree_ids
        )
    }
    kinds = {tid: layers[tid]["kind"] for tid in layers}
    tables = {tid: _family_name(layers[tid]) for tid in layers}
    planned = []
    for b in batch:
        trees = [layers[t] for t in b.trees]
        family = select_family(_anchor_sets(trees), config.max_anchor_overlap, kinds, tables)
        tid = family_id(family) if family else stable_id("leaper-union", b.biclique_id)
        planned.append((tid, b, trees, family))
    done = existing_task_ids(driver, database, [tid for tid, *_ in planned]) | seen
    todo = []
    for tid, b, trees, family in planned:
        if tid in done:
            report.skip()
            continue
        done.add(tid)
        seen.add(tid)
        todo.append((b, trees, family))
    facts = _family_facts(driver, database, [(trees, family) for _, trees, family in todo])
    tasks = []
    for b, trees, family in todo:
        sets = [_anchor_sets(trees)[t] for t in family]
        common = set.intersection(*sets) if sets else set()
        family_tables = {layers[t]["table_id"] for t in family}
        own = [
            f
            for f in facts
            if f["entity_id"] in common
            and f["table_id"] in family_tables
            and f["relation"] in b.relations
        ]
        task = union_task(b, trees, family, own, backend)
        if task.status == "kept" and len({t.id for t in task.targets}) > config.max_targets:
            task.reject("too_large")
        tasks.append(task)
    prove_union(driver, database, [t for t in tasks if t.status == "kept"])
    record_tasks(driver, database, tasks, config, report)


def _family_facts(
    driver: neo4j.Driver,
    database: str | None,
    families: list[tuple[list[dict[str, Any]], list[str]]],
) -> list[dict[str, Any]]:
    """The facts of every family's common anchors in the family's tables (one query)."""
    entities: set[str] = set()
    tables: set[str] = set()
    for trees, family in families:
        sets = _anchor_sets(trees)
        if family:
            entities |= set.intersection(*(sets[t] for t in family))
            tables |= {t["table_id"] for t in trees if t["tree_id"] in family}
    if not entities:
        return []
    return cypher.read(
        driver,
        "leaper/find_entity_facts",
        database=database,
        entity_ids=sorted(entities),
        table_ids=sorted(tables),
    )
