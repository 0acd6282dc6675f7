"""The `filter` stage: keep trajectories with ISR > α and ISE > β (WebLeaper: α=0.3, β=0.1).

A trajectory that did not end with an answer is rejected first (`not_answered`); then ISR and
ISE are checked in that order. Every verdict is written onto the Rollout (`kept`,
`reject_reason`) and every reject is reported with its reason and values.
"""

from __future__ import annotations

import neo4j

from seekgraph.agent.config import FilterConfig
from seekgraph.graphdb import cypher
from seekgraph.graphdb.stages import StageReport


def verdict(termination: str, isr: float, ise: float, config: FilterConfig) -> str | None:
    """None when kept, else the reason code."""
    if config.require_answer and termination != "answer":
        return "not_answered"
    if not isr > config.alpha:
        return "isr_below_alpha"
    if not ise > config.beta:
        return "ise_below_beta"
    return None


def filter_rollouts(
    driver: neo4j.Driver,
    database: str | None,
    config: FilterConfig | None = None,
    *,
    policy: str | None = None,
) -> StageReport:
    config = config or FilterConfig()
    report = StageReport("filter")
    rows = []
    for r in cypher.read(driver, "agent/find_rollouts_to_filter", database=database, policy=policy):
        reason = verdict(r["termination"], float(r["isr"]), float(r["ise"] or 0.0), config)
        rows.append(
            {"rollout_id": r["rollout_id"], "kept": reason is None, "reject_reason": reason}
        )
        if reason is None:
            report.keep()
        else:
            report.reject(
                r["rollout_id"],
                reason,
                f"termination={r['termination']} isr={r['isr']:.3f} ise={float(r['ise'] or 0):.3f}",
            )
    cypher.run_batches(driver, "agent/set_rollout_filter", rows, database=database)
    report.notes["alpha"] = config.alpha
    report.notes["beta"] = config.beta
    return report.finish()
