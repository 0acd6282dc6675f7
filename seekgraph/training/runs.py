"""TrainingRun nodes: config, dataset, per-step metrics, checkpoints and the code version.

A run's id hashes its kind, config and dataset, so re-running the same config resumes the same
run (same output folder, last checkpoint) instead of starting a new one. A transformers
`TrainerCallback` (built in `progress_callback`) writes the step metrics and every saved
checkpoint to the node as training goes, so a killed run still shows how far it got.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import neo4j

from seekgraph.graphdb import cypher
from seekgraph.graphdb.ids import stable_id

REPO = Path(__file__).resolve().parents[2]


def code_version() -> str:
    """`git describe`-like: the commit, with `-dirty` when the tree has changes; else the version."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"],
            cwd=REPO,
            check=True,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=REPO,
            check=True,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout
        return commit + ("-dirty" if dirty.strip() else "")
    except (OSError, subprocess.SubprocessError):
        from importlib.metadata import PackageNotFoundError, version

        try:
            return f"seekgraph-{version('seekgraph')}"
        except PackageNotFoundError:
            return "unknown"


def run_id(kind: str, config: dict[str, Any], dataset_id: str) -> str:
    return stable_id(f"run-{kind}", config, dataset_id)


def start_run(
    driver: neo4j.Driver,
    database: str | None,
    *,
    run_id: str,
    kind: str,
    config: dict[str, Any],
    dataset_id: str,
    output_dir: Path,
) -> None:
    cypher.run_batches(
        driver,
        "training/merge_training_runs",
        [
            {
                "run_id": run_id,
                "kind": kind,
                "config_json": json.dumps(config, sort_keys=True),
                "code_version": code_version(),
                "output_dir": str(output_dir.resolve()),
                "status": "running",
                "dataset_id": dataset_id,
            }
        ],
        database=database,
    )


def record_progress(
    driver: neo4j.Driver,
    database: str | None,
    *,
    run_id: str,
    status: str,
    metrics: dict[str, Any],
    checkpoint: str | None,
    checkpoints: list[str],
) -> None:
    cypher.write(
        driver,
        "training/set_training_run_progress",
        database=database,
        run_id=run_id,
        status=status,
        metrics_json=json.dumps(metrics, sort_keys=True),
        checkpoint=checkpoint,
        checkpoints=checkpoints,
    )


def output_folder(configured: str, out_root: Path, run_id: str) -> Path:
    """The run's folder: the configured one, else ``<out_root>/runs/<run id>`` (created)."""
    folder = Path(configured) if configured else out_root / "runs" / run_id.replace(":", "-")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def train_and_record(
    trainer: Any,
    driver: neo4j.Driver | None,
    database: str | None,
    *,
    run_id: str,
    metrics: dict[str, Any],
    checkpoints: list[str],
    resume: str | None = None,
    summarize: Callable[[Any, float], None] | None = None,
) -> tuple[float, Path]:
    """Train, save the final model and tokenizer, and record the run's end in the graph.

    `summarize(output, seconds)` may add to `metrics` before they are recorded. Returns
    (seconds, the final checkpoint). A failure is recorded as status ``failed`` and raised as
    `TrainingError`.
    """
    from seekgraph.training.errors import TrainingError

    start = time.perf_counter()
    try:
        output = trainer.train(resume_from_checkpoint=resume)
    except (RuntimeError, ValueError) as e:
        if driver is not None:
            record_progress(
                driver,
                database,
                run_id=run_id,
                status="failed",
                metrics=metrics,
                checkpoint=None,
                checkpoints=checkpoints,
            )
        raise TrainingError(f"training failed: {e}") from e
    seconds = time.perf_counter() - start
    final = Path(trainer.args.output_dir) / "final"
    trainer.save_model(str(final))
    trainer.processing_class.save_pretrained(str(final))
    metrics["global_step"] = int(trainer.state.global_step)
    metrics["seconds"] = seconds
    if summarize is not None:
        summarize(output, seconds)
    if driver is not None:
        record_progress(
            driver,
            database,
            run_id=run_id,
            status="finished",
            metrics=metrics,
            checkpoint=str(final.resolve()),
            checkpoints=checkpoints,
        )
    return seconds, final


def finished_run(
    driver: neo4j.Driver, database: str | None, run_id: str, output_dir: Path
) -> dict[str, Any] | None:
    """The TrainingRun `run_id` when it finished and its final checkpoint is still on disk:
    where the graph says, or in `output_dir` when the run's folder was moved there (the graph
    then records the new place, so evaluations and exports find it)."""
    rows = cypher.read(driver, "training/find_training_run", database=database, run_id=run_id)
    if not rows or rows[0]["status"] != "finished" or not rows[0]["checkpoint"]:
        return None
    row = dict(rows[0])
    if (Path(row["checkpoint"]) / "config.json").is_file():
        return row
    moved = (output_dir / "final").resolve()
    if not (moved / "config.json").is_file():
        return None
    old, new = str(row["output_dir"] or ""), str(output_dir.resolve())
    cypher.write(
        driver,
        "training/move_training_run",
        database=database,
        run_id=run_id,
        output_dir=new,
        checkpoint=str(moved),
        checkpoints=[
            new + c[len(old) :] if old and c.startswith(old) else c
            for c in row.get("checkpoints") or []
        ],
    )
    row.update(checkpoint=str(moved), output_dir=new)
    return row


def link_tasks(
    driver: neo4j.Driver, database: str | None, run_id: str, task_ids: list[str]
) -> None:
    cypher.run_batches(
        driver,
        "training/merge_run_tasks",
        [{"task_id": t} for t in task_ids],
        database=database,
        params={"run_id": run_id},
    )


def record_examples(
    driver: neo4j.Driver, database: str | None, run_id: str, decisions: list[dict[str, Any]]
) -> None:
    """`TRAINING_EXAMPLE {used, reason, position, tokens}` from the run to every example's rollout."""
    rows = [d for d in decisions if d.get("rollout_id")]
    cypher.run_batches(
        driver, "training/merge_run_examples", rows, database=database, params={"run_id": run_id}
    )


def dropped_examples(
    driver: neo4j.Driver, database: str | None, checkpoint: str
) -> list[dict[str, Any]]:
    """The examples of the run behind `checkpoint` that it did NOT train on, with the reason."""
    key = str(Path(checkpoint).resolve()) if Path(checkpoint).exists() else checkpoint
    return cypher.read(
        driver, "training/find_checkpoint_dropped_examples", database=database, checkpoint=key
    )


def checkpoint_trajectories(
    driver: neo4j.Driver, database: str | None, checkpoint: str
) -> list[dict[str, Any]]:
    """Every rollout that trained `checkpoint` (a final/intermediate checkpoint path or run id).

    Only the examples the run used (`TRAINING_EXAMPLE.used`); a run recorded before those edges
    existed falls back to its whole dataset."""
    key = str(Path(checkpoint).resolve()) if Path(checkpoint).exists() else checkpoint
    return cypher.read(
        driver, "training/find_checkpoint_trajectories", database=database, checkpoint=key
    )


def progress_callback(
    driver: neo4j.Driver | None,
    database: str | None,
    run_id: str,
    metrics: dict[str, Any],
    checkpoints: list[str],
) -> Any:
    """A TrainerCallback collecting per-step logs into `metrics['steps']` and saved checkpoints."""
    from transformers import TrainerCallback

    class GraphProgress(TrainerCallback):  # type: ignore[misc]
        def on_log(
            self, args: Any, state: Any, control: Any, logs: Any = None, **kwargs: Any
        ) -> None:
            if logs:
                entry = {"step": int(state.global_step)}
                entry.update(
                    {
                        k: float(v)
                        for k, v in logs.items()
                        if isinstance(v, int | float) and not isinstance(v, bool)
                    }
                )
                metrics.setdefault("steps", []).append(entry)

        def on_save(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
            path = Path(args.output_dir) / f"checkpoint-{state.global_step}"
            checkpoints.append(str(path.resolve()))
            if driver is not None:
                record_progress(
                    driver,
                    database,
                    run_id=run_id,
                    status="running",
                    metrics=metrics,
                    checkpoint=None,
                    checkpoints=checkpoints,
                )

    return GraphProgress()
