"""Union tasks: the trees of one maximal biclique, merged on the entities they all contain.

Search units: the trees are split into topic groups (`seekgraph.synth.leaper.topics.topic_groups`:
components of the root-similarity graph at ``threshold``, re-split at stricter thresholds while
larger than ``max_group_trees``), keeping in a group only the trees that share an anchor with
another tree of it. Maximal bicliques are enumerated inside each group (a batch of groups at
once, by the graph), and each group is written as a ``TopicGroup`` with its bicliques and
tasks before the next batch starts. The grouping, memoised in the graph, is
`seekgraph.synth.leaper.union_groups`'s; which trees of a biclique a task intersects is
`seekgraph.synth.leaper.union_family`'s; this module phrases the task and runs the stage.

Definition: for a maximal biclique ``(A, B)`` of a group's tree × relation graph (trees ``A``
sharing relations ``B``; see `seekgraph.synth.leaper.bicliques`), let
``S_t`` be the anchor set of tree ``t``. Since a large ``A`` rarely has a common anchor, the task
uses the sub-family ``F ⊆ A`` chosen by `union_family.select_family`: the pair with the largest
common anchor set (ties by id), extended greedily (most common anchors first) by every tree that
keeps at least ``min(2, |I|)`` common anchors. ``F`` still shares ``B``. The task asks for
``I = ∩_{t∈F} S_t`` — the entities that appear as anchors in every tree of ``F`` — and, for each,
its values under ``B`` from the tables of ``F``. Targets R = ``I`` (role ``answer``) ∪
``⋃_{t∈F} S_t`` (role ``anchor``: the intermediate per-tree sets an agent must collect to
intersect them) ∪ the answers' values (role ``attribute``). Two trees whose anchor sets overlap
more than ``max_anchor_overlap`` (Jaccard) are copies of one list and never form ``F`` together;
two trees that list places and whose roots are less similar than ``place_threshold`` never do
either (a group is connected through chains, so two of its trees may be on no common topic, and
places are listed by tables of every topic).
Rejected: no two trees of ``A`` share an anchor (``empty_answer``), only copies do
(``near_duplicate_trees``), ``|R| > max_targets`` (``too_large``), or a proof mismatch.

Example: Nobel laureates in Literature and Booker Prize winners share ``{nationality, year}``;
``I`` = the authors who won both (Golding, Gordimer, Coetzee, Naipaul, Ishiguro).
"""

from __future__ import annotations

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
    placed_apart,
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
from seekgraph.synth.leaper.topics import Method, TopicGroup, similarity_matrix
from seekgraph.synth.leaper.union_family import (
    anchor_sets_by_tree,
    family_id,
    family_name,
    one_list,
    select_family,
)
from seekgraph.synth.leaper.union_groups import find_topic_groups, write_groups
from seekgraph.synth.noun_classes import noun_classes

if TYPE_CHECKING:
    from seekgraph.common.llm.base import LLMBackend

STAGE = "leaper-union"

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
    sets = anchor_sets_by_tree(trees)
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
    apart = {e for e in common if placed_apart(e, facts)}  # two lakes of one name
    common = [e for e in common if e not in apart]
    facts = [f for f in facts if f["entity_id"] not in apart]
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
    write_groups(driver, database, [(g, "searching", 0) for g in groups])
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
    write_groups(driver, database, status)
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
    tables = {tid: family_name(layers[tid]) for tid in layers}
    related = _related_roots(layers, config)
    planned = []
    for b in batch:
        trees = [layers[t] for t in b.trees]
        family = select_family(
            anchor_sets_by_tree(trees),
            config.max_anchor_overlap,
            kinds,
            tables,
            related,
            sorted_by={t["tree_id"]: one_list(t) for t in trees},
        )
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
        sets = [anchor_sets_by_tree(trees)[t] for t in family]
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


def _lists_places(kind: str) -> bool:
    """A tree's kind names places: countries, nations, cities, regions."""
    return "place" in noun_classes(kind) or kind.split()[-1:] == ["nation"]


def _related_roots(
    layers: dict[str, dict[str, Any]], config: LeaperConfig
) -> Callable[[str, str], bool]:
    """Whether two trees may form a family: trees that list places (countries, cities) only
    when their roots are at least ``place_threshold`` alike themselves, by the measure the
    topic groups were made with (`topics.similarity_matrix`). Places are in tables of every
    topic, so two tables sharing countries and a "points" or "rank" column share nothing a
    person would ask about unless they are one series: a cross-country race and an aerobics
    final are 0.43 alike, an acrobatics final and a half marathon 0.46, taekwondo and
    snowboarding at two Games 0.54, two editions of one championship 0.83-0.95. Two prizes
    sharing authors are asked about however unlike their titles ("Booker Prize" and "List of
    Nobel laureates in Literature", 0.26) and stay joined through their topic group."""
    places = sorted(t for t in layers if _lists_places(str(layers[t]["kind"] or "")))
    index = {tid: i for i, tid in enumerate(places)}
    roots = [str(layers[t]["root"] or "") for t in places]
    sims = similarity_matrix(roots, cast(Method, config.similarity)) if len(places) > 1 else None

    def related(a: str, b: str) -> bool:
        if a not in index or b not in index:
            return True
        return sims is not None and float(sims[index[a], index[b]]) >= config.place_threshold

    return related


def _family_facts(
    driver: neo4j.Driver,
    database: str | None,
    families: list[tuple[list[dict[str, Any]], list[str]]],
) -> list[dict[str, Any]]:
    """The facts of every family's common anchors in the family's tables (one query)."""
    entities: set[str] = set()
    tables: set[str] = set()
    for trees, family in families:
        sets = anchor_sets_by_tree(trees)
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
