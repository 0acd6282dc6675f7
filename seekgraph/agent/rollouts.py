"""Rollouts: many (task, index) trajectories, concurrent, resumable, sharded, stored in Neo4j.

A rollout is keyed `<task_id>/<policy>/<model>/<index>`. Each finished rollout is written in ONE
write transaction (Rollout with `status='done'`, its Steps, `SAW` and `REVEALED` edges), so after
a kill a rollout is either fully there or absent; a restart skips the done ones. Tool calls go
through `CachedTools`, so repeated requests are answered from `ToolCall` nodes.

Two ways to spread the work over workers on one graph:
- leases (`seekgraph.graphdb.leases`): every worker walks the same pending list and claims each rollout
  before running it, so workers split the work as they go and a killed worker's rollouts are
  taken over once its leases expire;
- sharding (`shard=(i, n)`): a task belongs to shard i when a stable hash of its id is i mod n, so
  n workers with the same task filter split the tasks without talking to each other (a job
  scheduler's array index maps onto it).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any, Protocol

import neo4j

from seekgraph.agent.config import TEACHERS
from seekgraph.agent.errors import AgentError
from seekgraph.agent.metrics import Target, task_targets, valid_turn
from seekgraph.agent.react import ReactConfig, run_react, run_react_batch
from seekgraph.agent.store import write_rollout
from seekgraph.agent.teacher import TaskInfo, TeacherConfig
from seekgraph.agent.trajectory import Rollout, Termination
from seekgraph.agent.web.tools import ToolBox
from seekgraph.common.llm.base import LLMBackend
from seekgraph.graphdb import cypher
from seekgraph.graphdb.leases import Leases
from seekgraph.graphdb.stages import Rejection, StageReport


class ShardError(AgentError):
    """A `--shard` value that is not `i/n` with 0 <= i < n."""


def parse_shard(text: str | None) -> tuple[int, int] | None:
    """`"i/n"` → (i, n)."""
    if not text:
        return None
    try:
        i, n = (int(x) for x in text.split("/"))
    except ValueError as e:
        raise ShardError(f"--shard must look like i/n (e.g. 0/4), got {text!r}") from e
    if n < 1 or not 0 <= i < n:
        raise ShardError(f"--shard {text!r}: need 0 <= i < n")
    return i, n


def in_shard(key: str, shard: tuple[int, int] | None) -> bool:
    if shard is None:
        return True
    digest = int(hashlib.sha1(key.encode("utf-8")).hexdigest()[:8], 16)
    return digest % shard[1] == shard[0]


def load_tasks(
    driver: neo4j.Driver,
    database: str | None,
    *,
    kind: str | None = None,
    variant: str | None = None,
    split: str | None = None,
    task_ids: Sequence[str] | None = None,
    limit: int = 1_000_000,
    shard: tuple[int, int] | None = None,
) -> list[TaskInfo]:
    rows = cypher.read(
        driver,
        "agent/find_tasks",
        database=database,
        kind=kind,
        variant=variant,
        split=split,
        task_ids=list(task_ids) if task_ids else None,
        limit=limit,
    )
    return [
        TaskInfo(
            r["task_id"], r["kind"] or "", r["variant"] or "", r["question"] or "", r["answer_json"]
        )
        for r in rows
        if in_shard(r["task_id"], shard)
    ]


def unavailable_tasks(
    driver: neo4j.Driver,
    database: str | None,
    task_ids: Sequence[str],
    *,
    kind: str | None = None,
    variant: str | None = None,
    split: str | None = None,
) -> list[Rejection]:
    """Why requested task ids cannot be rolled out, one `Rejection` per such id.

    `unknown_task`: no Task node has the id; `task_not_kept`: the task exists but its stage
    rejected it (the detail carries its status and reason); `not_selected`: a kept task that
    `kind`/`variant`/`split` exclude. Ids outside a shard or past a limit are not reported:
    that exclusion is what the caller asked for.
    """
    found = {
        r["task_id"]: r
        for r in cypher.read(
            driver, "agent/find_task_statuses", database=database, task_ids=list(task_ids)
        )
    }
    out: list[Rejection] = []
    for task_id in dict.fromkeys(task_ids):
        row = found.get(task_id)
        if row is None:
            out.append(Rejection(task_id, "unknown_task", "no Task node has this id"))
        elif row["status"] != "kept":
            detail = f"status={row['status']} reason={row['reason'] or '-'}"
            out.append(Rejection(task_id, "task_not_kept", detail))
        else:
            wanted = {"kind": kind, "variant": variant, "split": split}
            clash = [f"{k}={row[k]} (asked {v})" for k, v in wanted.items() if v and row[k] != v]
            if clash:
                out.append(Rejection(task_id, "not_selected", "; ".join(clash)))
    return out


def load_targets(
    driver: neo4j.Driver, database: str | None, task_ids: Sequence[str]
) -> dict[str, list[Target]]:
    rows: dict[str, list[dict[str, Any]]] = {t: [] for t in task_ids}
    for row in cypher.read(
        driver, "agent/find_task_targets", database=database, task_ids=list(task_ids)
    ):
        rows[row["task_id"]].append(row)
    return {task_id: task_targets(found) for task_id, found in rows.items()}


def rollout_id(task_id: str, policy: str, model: str, index: int) -> str:
    return f"{task_id}/{policy}/{model}/{index}"


class Policy(Protocol):
    """Produces one trajectory for a task (the teacher or an LLM)."""

    @property
    def name(self) -> str: ...

    @property
    def model(self) -> str: ...

    @property
    def max_rounds(self) -> int: ...

    def run(self, task: TaskInfo, seed: str) -> Rollout: ...


class ScriptedTeacher(Protocol):
    """The question-only teacher or the gold walker."""

    @property
    def config(self) -> TeacherConfig: ...

    def run(self, task: TaskInfo, seed: str) -> Rollout: ...


# the scripted policies' model names, versioned: a rollout of another version of a policy never
# passes for a done one (the gold walker's rollouts were once stored as teacher/teacher-d*)
MODEL_PREFIX = {"teacher": "question-v1", "gold-walker": "gold-walker"}


@dataclass
class TeacherRollouts:
    """A scripted teacher as a `Policy` named `name` (``teacher``: the question-only
    `TeacherPolicy`; ``gold-walker``: the privileged `GoldWalkerPolicy`); `model` names its
    version and detour setting, e.g. ``question-v1-d0.3``, and `tag` the tool settings when
    they are not the defaults (`seekgraph.agent.policies.settings_tag`), so rollouts under other
    settings never pass for done ones."""

    teacher: ScriptedTeacher
    name: str = "teacher"
    tag: str = ""

    @property
    def model(self) -> str:
        rate = self.teacher.config.detour_rate
        prefix = MODEL_PREFIX.get(self.name, self.name)
        return f"{prefix}-d{rate:g}" + (f"-{self.tag}" if self.tag else "")

    @property
    def max_rounds(self) -> int:
        return self.teacher.config.max_rounds

    def run(self, task: TaskInfo, seed: str) -> Rollout:
        return self.teacher.run(task, seed)


@dataclass
class LLMRollouts:
    """An `LLMBackend` in the ReAct loop as a `Policy`; `tag` as for the teacher. The model
    name (in every rollout id) is the backend's, which names the served model or the weights'
    folder, plus `checkpoint` (`seekgraph.agent.policies.checkpoint_id`, of the weights' bytes)
    when known: two checkpoints behind one endpoint never share rollouts, and a checkpoint
    folder moved elsewhere keeps its own (the folder's path then leaves the name)."""

    backend: LLMBackend
    tools: ToolBox
    config: ReactConfig
    name: str = "llm"
    tag: str = ""
    date: str = ""  # the system prompt's current date (empty: today)
    checkpoint: str = ""

    @property
    def model(self) -> str:
        name = self.backend.name
        folder = getattr(self.backend, "path", None)
        if self.checkpoint and folder is not None:
            # the checkpoint id names the weights; where their folder lies does not
            name = name.replace(str(folder), "local")
        name = name.replace("/", "_")
        name += f"@ckpt-{self.checkpoint}" if self.checkpoint else ""
        return name + (f"-{self.tag}" if self.tag else "")

    @property
    def max_rounds(self) -> int:
        return self.config.max_rounds

    @property
    def batches(self) -> bool:
        """Whether concurrent rollouts run as one batch (the backend computes batches)."""
        return hasattr(self.backend, "generate_batch")

    def run(self, task: TaskInfo, seed: str) -> Rollout:
        return run_react(
            self.backend, self.tools, task.question, self.config, date=self.date or None
        )

    def run_batch(self, tasks: Sequence[TaskInfo], seeds: Sequence[str]) -> list[Rollout]:
        """Rollouts of `tasks` in lock step (`seekgraph.agent.react.run_react_batch`)."""
        questions = [t.question for t in tasks]
        return run_react_batch(
            self.backend, self.tools, questions, self.config, date=self.date or None
        )


def save_rollout(
    driver: neo4j.Driver,
    database: str | None,
    task: TaskInfo,
    index: int,
    policy: Policy,
    rollout: Rollout,
    targets: Sequence[Target],
    shard: str = "",
) -> str:
    """Write a finished rollout in one transaction (`seekgraph.agent.store`); returns its id."""
    rid = rollout_id(task.task_id, policy.name, policy.model, index)
    trajectory = rollout.trajectory
    row = {
        "rollout_id": rid,
        "task_id": task.task_id,
        "policy": policy.name,
        "model": policy.model,
        "index": index,
        "termination": str(rollout.termination or Termination.FORMAT_ERROR),
        "prediction": rollout.prediction,
        "question": trajectory.question,
        "date": trajectory.date,
        "rounds": trajectory.rounds,
        "tool_calls": trajectory.tool_calls,
        "valid_turns": sum(
            valid_turn(turn.kind, step.error, turn.answer)
            for turn, step in zip(trajectory.turns, rollout.steps, strict=True)
        ),
        "tokens": trajectory.tokens(),
        "prompt_tokens": rollout.prompt_tokens,
        "completion_tokens": rollout.completion_tokens,
        "error": rollout.error,
        "seconds": round(rollout.seconds, 3),
        "max_rounds": policy.max_rounds,
        "shard": shard,
    }
    with driver.session(database=database) as session:
        session.execute_write(write_rollout, row, trajectory, rollout.steps, targets)
    return rid


def run_rollouts(
    driver: neo4j.Driver,
    database: str | None,
    tasks: Sequence[TaskInfo],
    policy: Policy,
    *,
    n: int = 1,
    concurrency: int = 2,
    shard: str = "",
    on_done: Callable[[int], None] | None = None,
    unavailable: Sequence[Rejection] = (),
    leases: Leases | None = None,
    backend_retries: int = 2,
    backend_backoff: float = 2.0,
    echo: Callable[[str], None] | None = None,
) -> StageReport:
    """Roll out every task `n` times, skipping (task, index) pairs already done.

    `kept` counts rollouts that ended with an answer; the others are stored too (their
    termination says why) and reported as rejections with the termination as reason.
    `unavailable` (requested task ids that cannot run, see `unavailable_tasks`) are counted
    as rejections with their own reasons, so a summary never hides a skipped request.
    With `leases`, a rollout is run only by the worker that claims it (others count it as
    skipped: ``held by other workers``).
    A rollout that ends with `backend_error` (an endpoint down, or answering garbage) is run
    again, alone, up to `backend_retries` times, `backend_backoff` seconds after the first
    failure and twice as long after each next one; if it still fails it is stored with its
    error and the number of attempts (it scores 0), `echo` gets one line for it, and the
    report counts it (``backend_error``) and the re-runs (``backend_reruns``).
    """
    report = StageReport("rollout" if policy.name in TEACHERS else "rollout-llm")
    for rejection in unavailable:
        report.reject(rejection.record_id, rejection.reason, rejection.detail)
    pairs = [(task, i) for task in tasks for i in range(n)]
    ids = [rollout_id(t.task_id, policy.name, policy.model, i) for t, i in pairs]
    finished = {
        r["rollout_id"]
        for r in cypher.read(
            driver, "agent/find_finished_rollouts", database=database, rollout_ids=ids
        )
    }
    pending = [(t, i) for (t, i), rid in zip(pairs, ids, strict=True) if rid not in finished]
    report.skip(len(pairs) - len(pending))
    targets = load_targets(driver, database, sorted({t.task_id for t, _ in pending}))
    started = time.perf_counter()
    steps = 0

    def claim(chunk: list[tuple[TaskInfo, int]]) -> list[tuple[TaskInfo, int, str]]:
        """The rollouts of `chunk` this worker may run: all without leases; else those it
        claims that no other worker finished since the pending list was read."""
        ids = [(t, i, rollout_id(t.task_id, policy.name, policy.model, i)) for t, i in chunk]
        if leases is None:
            return ids
        mine = [x for x in ids if leases.claim([x[2]])]
        done = {
            r["rollout_id"]
            for r in cypher.read(
                driver,
                "agent/find_finished_rollouts",
                database=database,
                rollout_ids=[x[2] for x in mine],
            )
        }
        leases.release(sorted(done))
        return [x for x in mine if x[2] not in done]

    def job(chunk: list[tuple[TaskInfo, int]]) -> list[tuple[str, Rollout | None]]:
        """Run a chunk (one rollout, or one batch of a batching policy) and store each; None
        for a rollout another worker holds or has finished."""
        mine = claim(chunk)
        try:
            if run_batch is not None and len(mine) > 1:
                done = run_batch([t for t, _, _ in mine], [rid for _, _, rid in mine])
            else:
                done = [policy.run(t, seed=rid) for t, _, rid in mine]
            done = [retried(t, rid, r) for (t, _, rid), r in zip(mine, done, strict=True)]
            for (task, index, _), rollout in zip(mine, done, strict=True):
                save_rollout(
                    driver,
                    database,
                    task,
                    index,
                    policy,
                    rollout,
                    targets.get(task.task_id, []),
                    shard,
                )
        finally:
            if leases is not None:
                leases.release([rid for _, _, rid in mine])
        ran = {rid: rollout for (_, _, rid), rollout in zip(mine, done, strict=True)}
        return [
            (rid, ran.get(rid))
            for rid in (rollout_id(t.task_id, policy.name, policy.model, i) for t, i in chunk)
        ]

    reruns: list[int] = []

    def retried(task: TaskInfo, rid: str, rollout: Rollout) -> Rollout:
        """`rollout`, or its re-run after a backend failure (see the docstring)."""
        attempts = 1
        while rollout.termination == Termination.BACKEND_ERROR and attempts <= backend_retries:
            time.sleep(backend_backoff * 2 ** (attempts - 1))
            rollout = policy.run(task, seed=rid)
            attempts += 1
            reruns.append(1)
        if rollout.termination == Termination.BACKEND_ERROR:
            first = (rollout.error or "unknown backend failure").splitlines()[0][:300]
            rollout.error = f"{first} (after {attempts} attempt{'s' if attempts > 1 else ''})"
            if echo is not None:
                echo(f"rollout {rid}: backend_error: {rollout.error}")
        return rollout

    # a batching policy (an LLM whose backend computes batches) runs `concurrency` rollouts
    # as one lock-step batch, in fixed chunks of the pending list; others run one per thread
    run_batch = getattr(policy, "run_batch", None) if getattr(policy, "batches", False) else None
    batch_size = concurrency if run_batch is not None else 1
    chunks = [pending[k : k + batch_size] for k in range(0, len(pending), batch_size)]
    threads = 1 if batch_size > 1 else max(1, concurrency)
    with ThreadPoolExecutor(max_workers=threads) as pool:
        futures = [pool.submit(job, chunk) for chunk in chunks]
        try:
            for future in as_completed(futures):
                for rid, rollout in future.result():
                    if on_done is not None:
                        on_done(1)
                    if rollout is None:
                        report.skip()
                        report.count("held by other workers")
                        continue
                    steps += len(rollout.steps)
                    if rollout.termination == Termination.ANSWER:
                        report.keep()
                    else:
                        report.reject(rid, str(rollout.termination), rollout.error or "")
        except BaseException:
            for f in futures:
                f.cancel()
            raise
    seconds = time.perf_counter() - started
    report.notes["policy"] = f"{policy.name}/{policy.model}"
    if reruns:
        report.notes["backend_reruns"] = len(reruns)
    report.notes["steps"] = steps
    report.notes["steps_per_second"] = round(steps / seconds, 1) if seconds > 0 else 0.0
    return report.finish()
