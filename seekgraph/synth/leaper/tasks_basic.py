"""Basic tasks: one tree, the question names its root, the target set R is the whole tree.

Definition: for a tree with root ``q``, anchors ``A`` and relations ``Rel``, the task asks for
every anchor and, for each, its values under ``Rel`` from the tree's table (a tree whose rows
share no kind asks nothing a person would ask and is rejected as ``generic_kind``; one whose
rows have a second subject of the answers' kind, a clubs' table with a "Team" column, as
``two_subjects``; a relation that
fewer than half of the anchors hold a value for is not asked, nor one whose header cannot be
said in words: `seekgraph.synth.phrasing.attributes.phrase_attribute`, counted per reason). The
gold answer is one record per anchor with its values (`seekgraph.common.answer_records`);
targets R = ``A`` (role ``anchor``) ∪ the attribute values (role ``attribute``). The proof
(`seekgraph.synth.leaper.proofs.prove_basic`) recomputes both sets from the table's rows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
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
    existing_task_ids,
    held_relations,
    record_tasks,
    target_of,
    value_kinds,
)
from seekgraph.synth.leaper.proofs import prove_basic
from seekgraph.synth.leaper.questions import (
    asked_words,
    basic_question,
    listed_role,
    paraphrase,
    phrasable,
    relation_values,
    table_labels,
    table_ref,
)
from seekgraph.synth.phrasing.header_kind import GENERIC_KIND

if TYPE_CHECKING:
    from seekgraph.common.llm.base import LLMBackend

STAGE = "leaper-basic"


def basic_task(
    tree: dict[str, Any], facts: list[dict[str, Any]], backend: LLMBackend | None = None
) -> TaskRecord:
    """The Basic task of one tree (`tree` from leaper/find_tree_anchors, its anchors' facts
    from its own table)."""
    anchors = [a for a in tree["anchors"] if a["id"]]
    relations = held_relations(
        sorted({f["relation"] for f in facts}), facts, [a["id"] for a in anchors]
    )
    labels = table_labels(tree.get("headers") or [], tree.get("key_header") or "")
    kinds, values = value_kinds(facts), relation_values(facts)
    relations, dropped = phrasable(
        relations, kinds, values, labels, tree["kind"], [table_ref(tree)]
    )
    # two columns of one relation ("Population (2004)", "Population (2011)"): a record would
    # mix their values without saying which is which
    columns = Counter(h["relation"] for h in tree.get("headers") or [] if h.get("relation"))
    dropped.update({r: "merged_columns" for r in relations if columns[r] > 1})
    relations = [r for r in relations if columns[r] <= 1]
    facts = [f for f in facts if f["relation"] in relations]
    targets = [Target("anchor", "entity", a["id"], a["name"]) for a in anchors]
    targets += [target_of("attribute", f) for f in facts]
    question, source = paraphrase(
        basic_question(
            table_ref(tree),
            tree["kind_plural"],
            relations,
            kinds,
            labels,
            values,
            role=listed_role(
                tree.get("key_header") or "",
                [h["header"] or "" for h in tree.get("headers") or [] if h],
                [
                    h["header"] or ""
                    for h in tree.get("headers") or []
                    if h and kinds.get(h["relation"]) and kinds[h["relation"]] <= {"number", "year"}
                ],
            ),
        ),
        backend,
        asked_words(relations, labels),
    )
    return TaskRecord(
        task_id=stable_id("leaper-basic", tree["tree_id"]),
        variant="basic",
        question=question,
        question_source=source,
        answers=answer_records([(a["id"], a["name"]) for a in anchors], facts, relations),
        targets=targets,
        tree={
            "root": tree["root"],
            "table_id": tree["table_id"],
            "kind": tree["kind"],
            "kind_plural": tree["kind_plural"],
            "kind_source": tree.get("kind_source"),
            "selection": tree.get("selection") or "",
            "relations": relations,
            "dropped_attributes": dropped,
            "anchors": [a["id"] for a in anchors],
        },
        spec={"table_id": tree["table_id"], "relations": relations},
        trees=[tree["tree_id"]],
    )


def build_basic_tasks(
    driver: neo4j.Driver,
    database: str | None,
    config: LeaperConfig,
    backend: LLMBackend | None = None,
    progress: Callable[[int], None] | None = None,
) -> StageReport:
    """One Basic task per tree; tasks already in the graph are skipped (resumable)."""
    report = StageReport(STAGE)
    trees = cypher.read(driver, "leaper/find_trees", database=database)
    ids = {t["tree_id"]: stable_id("leaper-basic", t["tree_id"]) for t in trees}
    done = existing_task_ids(driver, database, list(ids.values()))
    todo = [t["tree_id"] for t in trees if ids[t["tree_id"]] not in done]
    report.skip(len(trees) - len(todo))
    for batch in cypher.batched(todo, config.batch_size):
        layers = cypher.read(driver, "leaper/find_tree_anchors", database=database, tree_ids=batch)
        facts = cypher.read(
            driver,
            "leaper/find_entity_facts",
            database=database,
            entity_ids=sorted({a["id"] for tree in layers for a in tree["anchors"] if a["id"]}),
            table_ids=[tree["table_id"] for tree in layers],
        )
        by_table: dict[str, list[dict[str, Any]]] = {}
        for f in facts:
            by_table.setdefault(f["table_id"], []).append(f)
        tasks = []
        for tree in layers:
            anchors = {a["id"] for a in tree["anchors"]}
            own = [f for f in by_table.get(tree["table_id"], []) if f["entity_id"] in anchors]
            task = basic_task(tree, own, backend)
            for reason in task.tree["dropped_attributes"].values():
                report.count(f"attribute not asked ({reason})")
            if len({t.id for t in task.targets}) > config.max_targets:
                task.reject("too_large")
            elif tree["kind_plural"] == GENERIC_KIND[1]:
                # no kind names all the rows: "The table lists things of several kinds. Name
                # each of them." names nothing the answers are (the rubric's "kind it names"),
                # and every audit read such a question as a failure; Union already drops them
                task.reject("generic_kind")
            elif "other_subject" in task.tree["dropped_attributes"].values():
                # a club's "Team" column: each row has a second subject of the answers' kind
                # (the season's top scorer and his team), and no header says which of the
                # other columns are whose
                task.reject("two_subjects")
            tasks.append(task)
        prove_basic(driver, database, [t for t in tasks if t.status == "kept"])
        record_tasks(driver, database, tasks, config, report)
        if progress is not None:
            progress(len(batch))
    return report.finish()
