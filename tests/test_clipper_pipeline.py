"""Pruning REAL teacher rollouts (the teacher policy, real search/visit calls on the agent's tiny
offline web from `tests/agent_fixture.py`), with recorded detours as known truth."""

from __future__ import annotations

import neo4j

from seekgraph.agent.gold_walker import GoldWalkerPolicy
from seekgraph.agent.rollouts import TeacherRollouts, load_tasks, run_rollouts
from seekgraph.agent.store import read_trajectories
from seekgraph.agent.teacher import TeacherConfig
from seekgraph.agent.web.tools import WebTools
from seekgraph.agent.web.wrappers import CachedTools
from seekgraph.cli.pipeline import STAGES
from seekgraph.common.wire import check_complete
from seekgraph.training.stategraph.prune import prune_rollouts
from seekgraph.training.stategraph.prune_config import PruneConfig
from tests.agent_fixture import load_fixture


def test_prune_is_a_pipeline_stage_right_after_filter() -> None:
    names = [s.name for s in STAGES]
    assert names.index("prune") == names.index("filter") + 1


def test_teacher_detours_are_pruned_and_answer_producers_kept(clean_db: neo4j.Driver) -> None:
    load_fixture(clean_db, None)
    tools = CachedTools(WebTools(clean_db, None))
    walker = GoldWalkerPolicy(clean_db, None, tools, TeacherConfig(detour_rate=1.0))
    policy = TeacherRollouts(walker, name="gold-walker")
    run_rollouts(clean_db, None, load_tasks(clean_db, None), policy, n=2, concurrency=1)
    result = prune_rollouts(clean_db, None, PruneConfig(rewrite=False, include_unfiltered=True))
    assert len(result.outcomes) == 4
    pruned = [o for o in result.outcomes if o.status == "pruned"]
    assert pruned, [(o.rollout_id, o.reason) for o in result.outcomes]
    removed = {(o.rollout_id, t) for o in pruned for t in o.removed}
    detours = {(o.rollout_id, t) for o in pruned for t in o.detours}
    assert removed & detours  # detours are found ...
    assert all(o.answer_kept for o in pruned)  # ... and no answer entity is lost
    rows = clean_db.execute_query(
        "MATCH (p:Rollout {pruned: true})-[:PRUNED_FROM]->(o:Rollout) "
        "RETURN p.rollout_id AS p, o.rollout_id AS o, p.kept_steps AS kept"
    ).records
    assert len(rows) == len(pruned)
    stored = read_trajectories(clean_db, None, [r[k] for r in rows for k in ("p", "o")])
    for row in rows:
        after, before = stored[row["p"]].trajectory, stored[row["o"]].trajectory
        check_complete(after)
        assert [t.parsed.call_text for t in after.turns] == [
            before.turns[s].parsed.call_text for s in row["kept"]
        ]
