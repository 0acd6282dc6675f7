"""The prune stage's output for an accepted vote: the pruned trajectory, checked (answer entities
still shown, wire format complete), its thoughts rewritten, and its `store.write_pruned` row."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from seekgraph.agent.store import step_rows
from seekgraph.common.wire import Trajectory, WireFormatError, check_complete
from seekgraph.training.stategraph.prune_config import PruneConfig
from seekgraph.training.stategraph.prune_models import make_rewriter
from seekgraph.training.stategraph.prune_outcome import ChunkWrites, PruneOutcome, PruneResult
from seekgraph.training.stategraph.prune_search import Prepared
from seekgraph.training.stategraph.rewrite import Rewriter


def finish_pruned(
    p: Prepared,
    outcome: PruneOutcome,
    accepted: frozenset[int],
    config: PruneConfig,
    rewriter_box: list[Any],
    result: PruneResult,
    writes: ChunkWrites,
    on_doing: Callable[[str], None] | None = None,
) -> None:
    """Build, check, rewrite and queue the pruned trajectory of an accepted vote; `on_doing`
    hears what a slow step is busy with (an LLM rewrite takes minutes on CPU)."""
    report = result.report
    rid = p.record.rollout_id
    original = p.trajectory
    kept_turns = sorted(accepted - {0})
    outcome.kept = kept_turns
    outcome.removed = [t.index for t in original.turns if t.index not in accepted]
    outcome.tool_calls_before = outcome.tool_calls_after = original.tool_calls
    outcome.tokens_before = outcome.tokens_after = original.tokens()
    if not outcome.removed:
        outcome.status, outcome.reason = "minimal", "nothing_to_prune"
        report.keep()
        writes.statuses.append(
            {"rollout_id": rid, "status": "minimal", "detail": "every action needed"}
        )
        return
    kept_texts = [0] + [t.index for t in original.turns if t.index in accepted]
    missing = sorted(set(p.answer_keys).difference(*(p.answer_mentions[i] for i in kept_texts)))
    if missing:  # cannot happen while first producers are required; checked, never assumed
        outcome.answer_kept, outcome.reason = False, "answer_entity_lost"
        writes.unpruned(report, rid, "answer_entity_lost", f"missing {missing[:10]}")
        return

    def busy(now: bool) -> None:  # what a log shows while an LLM rewrites this one (minutes)
        if on_doing is not None:
            on_doing(f"rewriting the thoughts of {rid} with an LLM" if now else "")

    pruned, records = rewrite_thoughts(
        original, kept_turns, outcome, config, rewriter_box, result, busy
    )
    try:
        check_complete(pruned)
    except WireFormatError as e:
        outcome.reason = "invalid_output"
        writes.unpruned(report, rid, "invalid_output", str(e))
        return
    outcome.status, outcome.reason = "pruned", "accepted"
    outcome.tool_calls_after = pruned.tool_calls
    outcome.tokens_after = pruned.tokens()
    report.keep()
    writes.pruned.append(pruned_row(rid, original, pruned, outcome, records, p.graph_ids, config))
    removed = [t - 1 for t in outcome.removed]
    writes.statuses.append(
        {"rollout_id": rid, "status": "pruned", "detail": f"removed steps {removed}"}
    )


def rewrite_thoughts(
    original: Trajectory,
    kept_turns: list[int],
    outcome: PruneOutcome,
    config: PruneConfig,
    rewriter_box: list[Any],
    result: PruneResult,
    busy: Callable[[bool], None] | None = None,
) -> tuple[Trajectory, list[Any]]:
    """The pruned trajectory with its thoughts rewritten: by the LLM rewriter (checked, see
    `rewrite`) while a backend is configured and the run's rewrite limit allows, else
    deterministically (no model)."""
    started = time.perf_counter()
    pruned = original.keep(kept_turns)
    records: list[Any] = []
    if config.rewrite:
        llm = bool(config.rewrite_backend) and (
            config.rewrite_limit < 0 or result.rewrite_calls < config.rewrite_limit
        )
        if llm:
            result.rewrite_calls += 1
            if rewriter_box[0] is None:
                rewriter_box[0] = make_rewriter(config)
            rewriter = rewriter_box[0]
        else:
            rewriter = Rewriter()
        if llm and busy is not None:
            busy(True)
        pruned, records = rewriter.rewrite(original, kept_turns)
        if llm and busy is not None:
            busy(False)
        failed = sum(1 for r in records if r.status != "rewritten")
        outcome.rewritten = len(records) - failed
        outcome.rewrite_status = (
            "not_needed" if not records else "rewritten" if not failed else "rewrite_failed"
        )
    else:
        outcome.rewrite_status = "not_rewritten"
    result.seconds_rewrite += time.perf_counter() - started
    return pruned, records


def pruned_row(
    rid: str,
    original: Trajectory,
    pruned: Trajectory,
    outcome: PruneOutcome,
    records: list[Any],
    graph_ids: list[str],
    config: PruneConfig,
) -> dict[str, Any]:
    """The `store.write_pruned` row of a pruned trajectory (node, provenance, steps)."""
    pruned_id = f"{rid}/pruned"
    rewritten = {r.turn: r.method for r in records if r.status == "rewritten"}
    methods = sorted(set(rewritten.values()))
    return {
        "rollout_id": pruned_id,
        "original_id": rid,
        "graph_ids": graph_ids,
        "props": {
            "question": pruned.question,
            "date": pruned.date,
            "rounds": pruned.rounds,
            "rounds_before": original.rounds,
            "tool_calls": pruned.tool_calls,
            "tool_calls_before": original.tool_calls,
            "tokens": outcome.tokens_after,
            "tokens_before": outcome.tokens_before,
            "kept_steps": [t - 1 for t in outcome.kept],
            "removed_steps": [t - 1 for t in outcome.removed],
            "rewrite_status": outcome.rewrite_status,
            # how the thoughts were rewritten: llm, deterministic, llm+deterministic or ""
            "rewrite": "+".join(reversed(methods)),
            "rewrite_json": json.dumps([r.as_dict() for r in records], ensure_ascii=False),
            "prune_extractor": config.extractor,
        },
        "steps": step_rows(pruned_id, pruned, rewritten=rewritten),
    }
