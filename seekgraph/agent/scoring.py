"""`seekgraph score`: compute ISR, ISE, P/R/F1, accuracy and F-AE for stored rollouts.

Reads each rollout's trajectory from the graph (`seekgraph.agent.store`), matches its observations against the task's targets
(`seekgraph.agent.metrics`) and writes the scores onto the Rollout node. Rollouts that already have scores
are skipped unless `rescore`; sharded like rollouts (by rollout id).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

import neo4j

from seekgraph.agent.metrics import score
from seekgraph.agent.rollouts import in_shard, load_targets
from seekgraph.agent.store import read_trajectories
from seekgraph.common.answers import gold_records
from seekgraph.graphdb import cypher
from seekgraph.graphdb.cypher import batched
from seekgraph.graphdb.stages import StageReport


def score_rollouts(
    driver: neo4j.Driver,
    database: str | None,
    *,
    policy: str | None = None,
    rescore: bool = False,
    shard: tuple[int, int] | None = None,
    batch_size: int = 200,
    on_batch: Callable[[int], None] | None = None,
) -> StageReport:
    report = StageReport("score")
    rollouts = [
        r
        for r in cypher.read(
            driver,
            "agent/find_rollouts_to_score",
            database=database,
            policy=policy,
            rescore=rescore,
            pruned=False,
        )
        if in_shard(r["rollout_id"], shard)
    ]
    sums: dict[str, float] = defaultdict(float)
    for batch in batched(rollouts, batch_size):
        rids = [r["rollout_id"] for r in batch]
        task_ids = sorted({r["task_id"] for r in batch})
        targets = load_targets(driver, database, task_ids)
        answers = {
            a["task_id"]: gold_records(a["answer_json"])
            for a in cypher.read(
                driver, "agent/find_task_answers", database=database, task_ids=task_ids
            )
        }
        stored = read_trajectories(driver, database, rids)
        rows = []
        for r in batch:
            s = score(
                stored[r["rollout_id"]].trajectory.turns,
                targets.get(r["task_id"], []),
                r["prediction"] or "",
                answers.get(r["task_id"], []),
                int(r["rounds"] or 0),
                int(r["max_rounds"]),
            )
            rows.append(
                {
                    "rollout_id": r["rollout_id"],
                    "isr": s.isr,
                    "ise": s.ise,
                    "precision": s.precision,
                    "recall": s.recall,
                    "f1": s.f1,
                    "accuracy": s.accuracy,
                    "fae": s.fae,
                    "n_targets": s.n_targets,
                    "n_found": s.n_found,
                    "n_found_visit": s.n_found_visit,
                    "actions": s.actions,
                }
            )
            for key in ("isr", "ise", "f1", "accuracy", "fae"):
                sums[key] += getattr(s, key)
            if not s.n_targets:
                report.reject(r["rollout_id"], "no_targets", f"task {r['task_id']}")
            else:
                report.keep()
        cypher.run_batches(driver, "agent/set_rollout_scores", rows, database=database)
        if on_batch is not None:
            on_batch(len(batch))
    if rollouts:
        for key, total in sums.items():
            report.notes[f"mean_{key}"] = round(total / len(rollouts), 3)
    return report.finish()
