"""The `eval` stage: the agent evaluation of a checkpoint, written back to the graph.

Runs the ReAct agent (`seekgraph.agent.rollouts.run_rollouts` with the transformers backend on the
checkpoint) on held-out tasks, scores the rollouts (`seekgraph.agent.scoring.score_rollouts`), and stores
an `Evaluation` node with mean accuracy, F1, rounds, ISR, ISE, F-AE and the format-error rate,
linked to the TrainingRun that produced the checkpoint (`EVALUATES`), to the tasks (`ON_TASK`)
and to the rollouts (`USED_ROLLOUT`). Rollouts are resumable (done ones are skipped), so a
re-run finishes an interrupted evaluation and updates the same node.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import neo4j

from seekgraph.agent.config import ToolSettings
from seekgraph.graphdb import cypher
from seekgraph.graphdb.ids import stable_id
from seekgraph.training.config import EvalConfig
from seekgraph.training.errors import TrainingError


@dataclass
class EvalResult:
    eval_id: str
    checkpoint: str
    run_id: str | None
    n_tasks: int
    accuracy: float
    f1: float
    rounds: float
    isr: float
    ise: float
    fae: float
    format_error_rate: float
    rollout_ids: list[str]
    valid_turn_rate: float = 0.0  # assistant turns that are valid calls or answers
    tokens: float = 0.0  # mean trajectory tokens (`seekgraph.common.wire.count_tokens`)
    n_turns: int = 0

    def summary(self) -> str:
        return (
            f"{self.n_tasks} tasks: valid turns {self.valid_turn_rate:.1%} of {self.n_turns}, "
            f"accuracy {self.accuracy:.3f}, F1 {self.f1:.3f}, ISR {self.isr:.3f}, "
            f"ISE {self.ise:.3f}, rounds {self.rounds:.2f}, tokens {self.tokens:.0f}, "
            f"F-AE {self.fae:.3f}, format errors {self.format_error_rate:.0%}"
        )

    def metrics(self) -> dict[str, float]:
        """The numbers an evaluation reports, by name (tables compare these)."""
        names = ("valid_turn_rate", "accuracy", "f1", "isr", "ise", "rounds", "tokens", "fae")
        return {name: float(getattr(self, name)) for name in names}


def checkpoint_key(checkpoint: str) -> str:
    """Checkpoints are stored as absolute paths; 'smollm2' stays a name."""
    path = Path(checkpoint)
    return str(path.resolve()) if path.exists() else checkpoint


def evaluate_checkpoint(
    driver: neo4j.Driver,
    database: str | None,
    settings: EvalConfig,
    *,
    task_ids: list[str] | None = None,
    echo: Any = print,
) -> EvalResult:
    """Roll out `checkpoint` on the split's tasks, score, and store an Evaluation node."""
    key, model, rids = _roll_out(driver, database, settings, task_ids, echo)
    rows = cypher.read(driver, "training/find_rollout_scores", database=database, rollout_ids=rids)
    if not rows:
        raise TrainingError("the evaluation rollouts were not stored")

    def mean(name: str) -> float:
        return sum(float(r[name] or 0.0) for r in rows) / len(rows)

    run = cypher.read(driver, "training/find_run_by_checkpoint", database=database, checkpoint=key)
    turns = sum(int(r["rounds"] or 0) for r in rows)
    result = EvalResult(
        # the rollout ids name the checkpoint by its contents, so the evaluation's id needs
        # not its path: a moved checkpoint keeps its evaluation
        eval_id=stable_id(
            "eval", sorted(rids), {k: v for k, v in asdict(settings).items() if k != "checkpoint"}
        ),
        checkpoint=key,
        run_id=run[0]["run_id"] if run else None,
        n_tasks=len(rows),
        accuracy=mean("accuracy"),
        f1=mean("f1"),
        rounds=mean("rounds"),
        isr=mean("isr"),
        ise=mean("ise"),
        fae=mean("fae"),
        format_error_rate=sum(r["termination"] == "format_error" for r in rows) / len(rows),
        rollout_ids=sorted(r["rollout_id"] for r in rows),
        valid_turn_rate=sum(int(r["valid_turns"] or 0) for r in rows) / turns if turns else 0.0,
        tokens=mean("tokens"),
        n_turns=turns,
    )
    _store(driver, database, result, settings, model)
    return result


def _roll_out(
    driver: neo4j.Driver,
    database: str | None,
    settings: EvalConfig,
    task_ids: list[str] | None,
    echo: Any,
) -> tuple[str, str, list[str]]:
    """Roll the checkpoint out (resumable) and score; (checkpoint key, model, rollout ids)."""
    from seekgraph.agent.config import RolloutConfig
    from seekgraph.agent.policies import make_policy
    from seekgraph.agent.rollouts import load_tasks, rollout_id, run_rollouts
    from seekgraph.agent.scoring import score_rollouts
    from seekgraph.training.sft import resolve_model

    checkpoint = settings.checkpoint
    model_path = resolve_model(checkpoint)
    key = checkpoint_key(checkpoint) if checkpoint != "smollm2" else str(model_path.resolve())
    tasks = load_tasks(
        driver,
        database,
        split=None if task_ids else settings.split,
        task_ids=task_ids,
        limit=settings.limit_tasks,
    )
    if not tasks:
        raise TrainingError(f"no kept task with split={settings.split!r} to evaluate on")
    tools = {f.name: getattr(settings, f.name) for f in fields(ToolSettings)}
    agent = RolloutConfig(
        **tools,
        policy="llm",
        backend=settings.backend
        or f"transformers:{model_path}?device={settings.device}&dtype={settings.dtype}",
        max_rounds=settings.max_rounds,
        max_tokens=settings.max_tokens,
        max_context_tokens=settings.max_context_tokens,
        max_seconds=settings.max_seconds,
    )
    # the checkpoint is part of the rollout ids, also when an endpoint serves it under a name
    # of its own: another checkpoint behind the same endpoint never reuses these rollouts
    policy = make_policy(driver, database, agent, checkpoint=model_path)
    echo(f"evaluating {key} on {len(tasks)} {settings.split} task(s)")
    run_rollouts(driver, database, tasks, policy, n=1, concurrency=settings.concurrency, echo=echo)
    score_rollouts(driver, database, policy="llm")
    return key, policy.model, [rollout_id(t.task_id, policy.name, policy.model, 0) for t in tasks]


def _store(
    driver: neo4j.Driver, database: str | None, result: EvalResult, settings: EvalConfig, model: str
) -> None:
    """The Evaluation node and its links to the rollouts (and through them, the tasks)."""
    row = {
        "eval_id": result.eval_id,
        "checkpoint": result.checkpoint,
        "accuracy": result.accuracy,
        "f1": result.f1,
        "rounds": result.rounds,
        "isr": result.isr,
        "ise": result.ise,
        "fae": result.fae,
        "n_tasks": result.n_tasks,
        "format_error_rate": result.format_error_rate,
        "valid_turn_rate": result.valid_turn_rate,
        "tokens": result.tokens,
        "n_turns": result.n_turns,
        "split": settings.split,
        "model": model,
        "settings_json": json.dumps(asdict(settings), sort_keys=True),
        "run_id": result.run_id,
    }
    cypher.run_batches(driver, "training/merge_evaluations", [row], database=database)
    cypher.run_batches(
        driver,
        "training/merge_evaluation_links",
        [{"rollout_id": rid} for rid in result.rollout_ids],
        database=database,
        params={"eval_id": result.eval_id},
    )


def run_evaluations(
    driver: neo4j.Driver, database: str | None, checkpoints: list[str]
) -> list[dict[str, Any]]:
    """Stored evaluations of these checkpoints (before/after comparisons)."""
    return cypher.read(
        driver,
        "training/find_run_evaluations",
        database=database,
        checkpoints=[checkpoint_key(c) for c in checkpoints],
    )
