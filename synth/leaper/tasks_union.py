"""Union tasks: the trees of one maximal biclique, merged on the entities they all contain.

Definition: for a maximal biclique ``(A, B)`` of the tree × relation graph (trees ``A`` whose
roots are topically related, sharing relations ``B``; see `synth.leaper.bicliques`), let
``S_t`` be the anchor set of tree ``t``. Since a large ``A`` rarely has a common anchor, the task
uses the sub-family ``F ⊆ A`` chosen by `select_family`: the pair with the largest common anchor
set (ties by id), extended greedily (most common anchors first) by every tree that keeps at least
``min(2, |I|)`` common anchors. ``F`` still shares ``B``. The task asks for
``I = ∩_{t∈F} S_t`` — the entities that appear as anchors in every tree of ``F`` — and, for each,
its values under ``B`` from the tables of ``F``. Targets R = ``I`` (role ``answer``) ∪
``⋃_{t∈F} S_t`` (role ``anchor``: the intermediate per-tree sets an agent must collect to
intersect them) ∪ the answers' values (role ``attribute``). Rejected: no two trees of ``A``
share an anchor (``empty_answer``), ``|R| > max_targets`` (``too_large``), or a proof mismatch.

Example: Nobel laureates in Literature and Booker Prize winners share ``{nationality, year}``;
``I`` = the authors who won both (Golding, Gordimer, Coetzee, Naipaul, Ishiguro).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

import neo4j

from graphdb import cypher
from graphdb.ids import stable_id
from graphdb.stages import StageReport
from synth.leaper.bicliques import Biclique, BicliqueError, maximal_bicliques_cypher
from synth.leaper.common import (
    LeaperConfig,
    Target,
    TaskRecord,
    existing_task_ids,
    target_of,
    write_tasks,
)
from synth.leaper.proofs import prove_union
from synth.leaper.questions import paraphrase, union_question
from synth.leaper.topics import Method, related_components

if TYPE_CHECKING:
    from agent.llm.base import LLMBackend

STAGE = "leaper-union"


def find_bicliques(
    driver: neo4j.Driver, database: str | None, config: LeaperConfig, report: StageReport
) -> list[Biclique]:
    """Maximal bicliques inside each component of the root-similarity graph (Cypher-driven)."""
    trees = cypher.read(driver, "leaper/find_trees", database=database)
    groups = related_components(
        [t["tree_id"] for t in trees],
        [t["root"] or "" for t in trees],
        threshold=config.threshold,
        method=cast(Method, config.similarity),
    )
    out: list[Biclique] = []
    components = [g for g in groups if len(g) >= config.min_trees]
    report.notes["topic components (>= min_trees)"] = len(components)
    for group in components:
        try:
            out += maximal_bicliques_cypher(
                driver,
                group,
                database=database,
                min_trees=config.min_trees,
                min_relations=config.min_relations,
                limit=config.max_bicliques,
            )
        except BicliqueError as e:
            report.reject(f"component:{group[0]}", "too_many_bicliques", str(e))
    return sorted(set(out))


def select_family(anchor_sets: dict[str, set[str]]) -> list[str]:
    """The trees of a biclique a Union task intersects (see the module docstring).

    >>> select_family({"a": {"x", "y"}, "b": {"x", "y", "z"}, "c": {"x"}, "d": {"q"}})
    ['a', 'b']
    """
    ids = sorted(anchor_sets)
    best: tuple[int, str, str] | None = None
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            n = len(anchor_sets[a] & anchor_sets[b])
            if n and (best is None or n > best[0]):
                best = (n, a, b)
    if best is None:
        return []
    family = [best[1], best[2]]
    common = anchor_sets[best[1]] & anchor_sets[best[2]]
    rest = sorted(
        (t for t in ids if t not in family), key=lambda t: (-len(common & anchor_sets[t]), t)
    )
    for t in rest:
        if len(common & anchor_sets[t]) >= min(2, len(common)):
            family.append(t)
            common = common & anchor_sets[t]
    return sorted(family)


def union_task(
    biclique: Biclique,
    trees: list[dict[str, Any]],
    facts: list[dict[str, Any]],
    backend: LLMBackend | None = None,
) -> TaskRecord:
    """The Union task of a biclique (`trees` from leaper/find_tree_anchors, answers' facts)."""
    by_id = {t["tree_id"]: t for t in trees}
    family = select_family(
        {t["tree_id"]: {a["id"] for a in t["anchors"] if a["id"]} for t in trees}
    )
    trees = [by_id[t] for t in family] if family else sorted(trees, key=lambda t: t["tree_id"])
    anchor_sets = [{a["id"] for a in t["anchors"] if a["id"]} for t in trees]
    names = {a["id"]: a["name"] for t in trees for a in t["anchors"] if a["id"]}
    common = sorted(set.intersection(*anchor_sets)) if anchor_sets else []
    targets = [Target("answer", "entity", e, names[e]) for e in common]
    targets += [Target("anchor", "entity", e, names[e]) for e in sorted(set().union(*anchor_sets))]
    targets += [target_of("attribute", f) for f in facts]
    roots = [t["root"] for t in trees]
    task = TaskRecord(
        task_id=stable_id("leaper-union", biclique.biclique_id),
        variant="union",
        question=paraphrase(union_question(roots, biclique.relations), backend),
        answers=[{"name": names[e], "entity_id": e} for e in common],
        targets=targets,
        tree={
            "roots": roots,
            "trees": [t["tree_id"] for t in trees],
            "biclique_trees": list(biclique.trees),
            "relations": list(biclique.relations),
            "table_ids": [t["table_id"] for t in trees],
            "anchors": {t["tree_id"]: sorted(s) for t, s in zip(trees, anchor_sets, strict=True)},
        },
        spec={"table_ids": [t["table_id"] for t in trees], "relations": list(biclique.relations)},
        trees=[t["tree_id"] for t in trees],
        bicliques=[biclique.biclique_id],
    )
    if not common:
        task.reject("empty_answer")
    return task


def build_union_tasks(
    driver: neo4j.Driver,
    database: str | None,
    config: LeaperConfig,
    backend: LLMBackend | None = None,
    progress: Callable[[int], None] | None = None,
) -> StageReport:
    """Enumerate bicliques, write them, and one Union task per biclique (skips existing tasks)."""
    report = StageReport(STAGE)
    bicliques = find_bicliques(driver, database, config, report)
    report.notes["maximal bicliques"] = len(bicliques)
    cypher.run_batches(
        driver,
        "leaper/merge_bicliques",
        [
            {"biclique_id": b.biclique_id, "trees": list(b.trees), "relations": list(b.relations)}
            for b in bicliques
        ],
        database=database,
        batch_size=config.batch_size,
    )
    ids = {b: stable_id("leaper-union", b.biclique_id) for b in bicliques}
    done = existing_task_ids(driver, database, list(ids.values()))
    todo = [b for b in bicliques if ids[b] not in done]
    report.skip(len(bicliques) - len(todo))
    if progress is not None and report.skipped:
        progress(report.skipped)
    for batch in cypher.batched(todo, config.batch_size):
        tree_ids = sorted({t for b in batch for t in b.trees})
        layers = {
            t["tree_id"]: t
            for t in cypher.read(
                driver, "leaper/find_tree_anchors", database=database, tree_ids=tree_ids
            )
        }
        tasks = []
        for b in batch:
            trees = [layers[t] for t in b.trees]
            family = select_family(
                {t["tree_id"]: {a["id"] for a in t["anchors"] if a["id"]} for t in trees}
            )
            sets = [{a["id"] for a in layers[t]["anchors"] if a["id"]} for t in family]
            common = sorted(set.intersection(*sets)) if sets else []
            tables = [layers[t]["table_id"] for t in family]
            facts = (
                cypher.read(
                    driver,
                    "leaper/find_entity_facts",
                    database=database,
                    entity_ids=common,
                    table_ids=tables,
                    relations=list(b.relations),
                )
                if common
                else []
            )
            task = union_task(b, trees, facts, backend)
            if task.status == "kept" and len({t.id for t in task.targets}) > config.max_targets:
                task.reject("too_large")
            tasks.append(task)
        prove_union(driver, database, [t for t in tasks if t.status == "kept"])
        write_tasks(driver, database, tasks, config)
        for task in tasks:
            if task.status == "kept":
                report.keep()
            else:
                report.reject(task.task_id, task.reason, task.question[:200])
        if progress is not None:
            progress(len(batch))
    return report.finish()
