"""Reading trajectories and writing state graphs, necessary sets and pruned rollouts (Neo4j).

Every function takes the driver and database; queries live in `seekgraph/cypher/clipper/`. Writes are
`UNWIND $rows ... MERGE` batches, so re-running a chunk adds nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import neo4j

from seekgraph.agent.store import read_trajectories
from seekgraph.common.wire import Trajectory
from seekgraph.graphdb import cypher
from seekgraph.training.stategraph.extract_rules import LexEntry
from seekgraph.training.stategraph.model import StateGraph


@dataclass
class RolloutRecord:
    """What the stage needs of one original rollout."""

    rollout_id: str
    trajectory: Trajectory
    detours: dict[int, str]  # turn index -> recorded detour kind
    targets: list[LexEntry]
    lexicon: list[LexEntry] = field(default_factory=list)


def graph_id(rollout_id: str, extractor: str, run: int) -> str:
    return f"{rollout_id}/{extractor}/{run}"


def find_rollouts(
    driver: neo4j.Driver,
    database: str | None,
    *,
    include_unfiltered: bool = False,
    rollout_ids: Sequence[str] | None = None,
) -> list[dict[str, Any]]:
    """Candidates with their `prune_status` (None = not done yet)."""
    return cypher.read(
        driver,
        "clipper/find_rollouts_to_prune",
        database=database,
        include_unfiltered=include_unfiltered,
        rollout_ids=list(rollout_ids) if rollout_ids else None,
    )


def _entry(row: dict[str, Any]) -> LexEntry | None:
    if not row.get("key"):
        return None
    names = tuple(str(n) for n in row.get("names") or [] if n)
    return LexEntry(key=str(row["key"]), names=names, kind=str(row.get("kind") or "entity"))


def read_rollouts(
    driver: neo4j.Driver, database: str | None, rollout_ids: Sequence[str]
) -> list[RolloutRecord]:
    """Trajectory, recorded detours, answer targets and mention lexicon of each rollout."""
    lexicons: dict[str, list[LexEntry]] = {}
    for row in cypher.read(
        driver, "clipper/find_rollout_lexicon", database=database, rollout_ids=list(rollout_ids)
    ):
        ordered = sorted(row["entries"], key=lambda e: (e["kind"], e["key"] or ""))
        entries = (_entry(e) for e in ordered)
        lexicons[row["rollout_id"]] = [e for e in entries if e is not None]
    stored = read_trajectories(driver, database, rollout_ids)
    records = []
    for row in cypher.read(
        driver, "clipper/read_rollouts", database=database, rollout_ids=list(rollout_ids)
    ):
        rollout = stored.get(row["rollout_id"])
        if rollout is None:
            continue
        targets = [e for e in map(_entry, row.get("targets") or []) if e is not None]
        records.append(
            RolloutRecord(
                rollout_id=row["rollout_id"],
                trajectory=rollout.trajectory,
                detours=rollout.detours,
                targets=targets,
                lexicon=lexicons.get(row["rollout_id"], []) + targets,
            )
        )
    return records


@dataclass
class GraphRows:
    """Batched rows for writing many state graphs at once: one row per graph, holding its
    actions and facts, each edge naming its fact by position in the graph's list.

    Only information some action relies on is stored: a fact nobody uses can neither make an
    action necessary nor reach the answer, so the search and the Cypher ancestor query give the
    same answer without it, and two thirds of the facts a trajectory reads are such. Each action
    keeps the count of the facts it produced that no action used (`unused_facts`)."""

    graphs: list[dict[str, Any]] = field(default_factory=list)
    parts: list[dict[str, Any]] = field(default_factory=list)
    # per rollout: what its actions carry in every graph of it (built once, not per graph)
    _turns: dict[str, list[tuple[str, str | None, str | None]]] = field(
        default_factory=dict, repr=False
    )

    def _action_texts(
        self, rollout_id: str, trajectory: Trajectory
    ) -> list[tuple[str, str | None, str | None]]:
        texts = self._turns.get(rollout_id)
        if texts is None:
            texts = self._turns[rollout_id] = [(trajectory.question, None, None)] + [
                (
                    turn.thought,
                    turn.tool,
                    json.dumps(turn.arguments, ensure_ascii=False)
                    if turn.arguments is not None
                    else None,
                )
                for turn in trajectory.turns
            ]
        return texts

    def add(self, rollout_id: str, trajectory: Trajectory, graph: StateGraph) -> str:
        gid = graph_id(rollout_id, graph.extractor, graph.run)
        used: set[str] = set().union(*graph.enables)
        keys = sorted(used)
        position = {k: n for n, k in enumerate(keys)}
        self.graphs.append(
            {
                "graph_id": gid,
                "rollout_id": rollout_id,
                "extractor": graph.extractor,
                "run": graph.run,
                "granularity": graph.granularity,
                "n_actions": graph.n_actions,
                "n_infos": len(keys),
                "n_unused_infos": len(graph.infos - used),
                "notes_json": json.dumps(graph.notes, sort_keys=True, default=str),
            }
        )
        actions = []
        texts = self._action_texts(rollout_id, trajectory)
        for a in range(graph.n_actions):
            thought, tool, arguments_json = texts[a]
            actions.append(
                {
                    "action_id": f"{gid}/a{a}",
                    "index": a,
                    "thought": thought,
                    "tool": tool,
                    "arguments_json": arguments_json,
                    "is_query": a == 0,
                    "is_answer": a == graph.answer,
                    "produces": sorted(position[k] for k in graph.produces[a] & used),
                    "enables": sorted(position[k] for k in graph.enables[a]),
                    "unused_facts": len(graph.produces[a] - used),
                }
            )
        infos = [
            {
                "info_id": f"{gid}/i{n}",
                "key": k,
                "text": graph.info_text.get(k, k),
                "kind": graph.info_kind.get(k, "entity"),
            }
            for n, k in enumerate(keys)
        ]
        part = {"graph_id": gid, "actions": actions, "infos": infos}
        body = json.dumps([self.graphs[-1], part], ensure_ascii=False, separators=(",", ":"))
        digest = hashlib.sha1(body.encode("utf-8")).hexdigest()
        self.graphs[-1]["content_hash"] = part["content_hash"] = digest
        self.parts.append(part)
        return gid


def write_graphs(driver: neo4j.Driver, database: str | None, rows: GraphRows) -> int:
    """Write the batched graphs (graph nodes, then their parts), replacing what an earlier
    attempt wrote for the same graph ids; returns how many were already stored as they are.

    A graph's content hash is set in the transaction that creates its parts and removed in
    the one that deletes them, so a stored hash means the whole graph is there: a re-run
    (or a second worker) that builds the same graph writes nothing for it."""
    stored = {
        row["graph_id"]: row["content_hash"]
        for row in cypher.read(
            driver,
            "clipper/read_state_graph_hashes",
            database=database,
            graph_ids=[g["graph_id"] for g in rows.graphs],
        )
    }
    changed = {g["graph_id"] for g in rows.graphs if stored.get(g["graph_id"]) != g["content_hash"]}
    # a graph's parts are one transaction's memory: at about 400 elements per graph, 50 graphs
    # stay far below the default transaction limit
    for batch in cypher.batched(sorted(changed & stored.keys()), 50):
        cypher.write(driver, "clipper/delete_state_graph_parts", database=database, graph_ids=batch)
    cypher.run_batches(
        driver,
        "clipper/merge_state_graphs",
        [g for g in rows.graphs if g["graph_id"] in changed],
        database=database,
        batch_size=2000,
    )
    cypher.run_batches(
        driver,
        "clipper/create_state_graph_parts",
        [p for p in rows.parts if p["graph_id"] in changed],
        database=database,
        batch_size=50,
    )
    return len(rows.graphs) - len(changed)


def find_ancestors(
    driver: neo4j.Driver, database: str | None, roots: Mapping[str, Iterable[int]]
) -> dict[str, set[int]]:
    """Per graph: the actions that reach the answer or a root along PRODUCES/ENABLES."""
    rows = [{"graph_id": gid, "roots": sorted(r)} for gid, r in roots.items()]
    return {
        row["graph_id"]: set(row["ancestors"])
        for row in cypher.read(
            driver, "clipper/find_answer_ancestors", database=database, rows=rows
        )
    }


def read_graphs(
    driver: neo4j.Driver, database: str | None, graph_ids: Sequence[str]
) -> dict[str, StateGraph]:
    """The stored graphs as plain `StateGraph`s (info keys as stored)."""
    out: dict[str, StateGraph] = {}
    for row in cypher.read(
        driver, "clipper/read_state_graphs", database=database, graph_ids=list(graph_ids)
    ):
        n = int(row["n_actions"])
        produces: list[set[str]] = [set() for _ in range(n)]
        enables: list[set[str]] = [set() for _ in range(n)]
        for index, key in row["produces"]:
            produces[int(index)].add(key)
        for index, key in row["enables"]:
            enables[int(index)].add(key)
        out[row["graph_id"]] = StateGraph(
            produces=produces,
            enables=enables,
            extractor=row["extractor"],
            run=int(row["run"]),
            granularity=row["granularity"] or "",
        )
    return out


def write_necessary(driver: neo4j.Driver, database: str | None, rows: list[dict[str, Any]]) -> None:
    """Rows ``{graph_id, necessary, cost, exact_cost}``."""
    cypher.run_batches(driver, "clipper/set_necessary_actions", rows, database=database)


def write_pruned(driver: neo4j.Driver, database: str | None, rows: list[dict[str, Any]]) -> None:
    """Rows ``{rollout_id, original_id, props, graph_ids, steps}`` (steps: `seekgraph.agent.store`'s
    rows), in one transaction: the pruned rollouts, their provenance and their steps (replacing
    any a killed attempt wrote)."""
    if not rows:
        return
    nodes = [{k: v for k, v in row.items() if k != "steps"} for row in rows]
    steps = [step for row in rows for step in row["steps"]]

    def work(tx: neo4j.ManagedTransaction) -> None:
        tx.run(cypher.query("clipper/merge_pruned_rollouts"), rows=nodes).consume()
        ids = [row["rollout_id"] for row in rows]
        tx.run(cypher.query("agent/delete_rollout_steps"), rollout_ids=ids).consume()
        tx.run(cypher.query("agent/merge_steps"), rows=steps).consume()

    with driver.session(database=database) as session:
        session.execute_write(work)


def write_status(driver: neo4j.Driver, database: str | None, rows: list[dict[str, Any]]) -> None:
    """Rows ``{rollout_id, status, detail}`` on the originals (the resume marker)."""
    cypher.run_batches(driver, "clipper/set_prune_status", rows, database=database)
