"""The topic groups a Union search runs in: the trees split by the similarity of their roots
(`seekgraph.synth.leaper.topics.topic_groups`), keeping in a group only the trees that share an
anchor with another tree of it; the grouping memoised in the graph by a digest of its inputs;
and each group's status as its search goes (`seekgraph.synth.leaper.tasks_union` searches them).

Grouping embeds every root, a cost a re-run over unchanged trees should not pay again, so it
is a phase of its own before the search for bicliques and tasks.
"""

from __future__ import annotations

import json
from typing import Any, cast

import neo4j

from seekgraph.graphdb import cypher
from seekgraph.graphdb.ids import stable_id
from seekgraph.graphdb.stages import StageReport
from seekgraph.synth.leaper.common import LeaperConfig
from seekgraph.synth.leaper.topics import EMBEDDER, Method, TopicGroup, topic_groups


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


def write_groups(
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
