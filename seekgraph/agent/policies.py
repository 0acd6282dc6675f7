"""Building what a rollout needs from settings: the offline web's tools and the policy.

Stages, GRPO and the evaluation all build their tools and policies here, so the same settings
give the same tools everywhere.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

import neo4j

from seekgraph.agent.config import RolloutConfig, ToolSettings
from seekgraph.agent.errors import AgentError
from seekgraph.agent.web.tools import ToolBox, WebTools
from seekgraph.agent.web.wrappers import CachedTools, CutTools
from seekgraph.graphdb.ids import stable_id


def make_tools(
    driver: neo4j.Driver, database: str | None, settings: ToolSettings, *, cached: bool = True
) -> ToolBox:
    """WebTools (hybrid when pages carry embeddings; queries are embedded by the pages'
    backend, see `index.query_backend`), behind the ToolCall cache if `cached`,
    their observations cut to `settings.observation_chars` when set (the cache keeps them
    whole, so settings with other cuts share it)."""
    from seekgraph.agent.web.index import page_embedders, query_backend
    from seekgraph.common.embeddings import Embedder

    embedder = None
    embedders = page_embedders(driver, database) if settings.hybrid else []
    if embedders:
        # one query at a time (see Embedder.threads), by the backend that embedded the pages
        embedder = Embedder(threads=1, backend=query_backend(embedders))
    summary = None
    if settings.summary_backend:
        from seekgraph.common.llm.registry import load_backend

        summary = load_backend(settings.summary_backend)
    tools = WebTools(
        driver,
        database,
        top_k=settings.top_k,
        embedder=embedder,
        vector_weight=settings.vector_weight,
        summary_backend=summary,
        evidence_chars=settings.evidence_chars,
    )
    box: ToolBox = CachedTools(tools) if cached else tools
    return CutTools(box, settings.observation_chars) if settings.observation_chars else box


def settings_tag(settings: ToolSettings, *extra: Any) -> str:
    """'' when the tool settings are the defaults and `extra` is empty, else a short digest of
    them: part of a policy's model name, hence of its rollout ids."""
    tools = {f.name: getattr(settings, f.name) for f in fields(ToolSettings)}
    if (
        tools == {f.name: getattr(ToolSettings(), f.name) for f in fields(ToolSettings)}
        and not extra
    ):
        return ""
    return stable_id("s", tools, extra, length=8).removeprefix("s:")


def checkpoint_id(path: Path) -> str:
    """A short id of a checkpoint folder's contents: the names, sizes and bytes of its files.

    It goes into an LLM policy's model name, hence into its rollout ids: rollouts of one
    checkpoint are never taken for another's, whatever name an endpoint serves it under, and a
    checkpoint trained again in the same folder gets another id. It does not depend on where
    the folder is: a run folder moved (or copied) elsewhere keeps its rollouts and evaluations.
    """
    root = path.resolve()
    digest = hashlib.blake2b(digest_size=16)
    for file in sorted(f for f in root.rglob("*") if f.is_file() and not f.name.startswith(".")):
        digest.update(f"{file.relative_to(root).as_posix()}\0{file.stat().st_size}\0".encode())
        with file.open("rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
    return digest.hexdigest()[:16]


def make_policy(
    driver: neo4j.Driver,
    database: str | None,
    settings: RolloutConfig,
    *,
    checkpoint: Path | None = None,
) -> Any:
    """The teacher, the gold walker or an LLM policy (settings.policy), with cached tools.

    Only the gold walker is handed the driver for anything but its tools: the teacher gets the
    tools alone, as an LLM does. `checkpoint`: the folder the LLM's weights come from (found for
    `student`; given by the evaluation when an endpoint serves it); its `checkpoint_id` is part
    of the rollout ids."""
    from seekgraph.agent.gold_walker import GoldWalkerPolicy
    from seekgraph.agent.react import ReactConfig
    from seekgraph.agent.rollouts import LLMRollouts, TeacherRollouts
    from seekgraph.agent.teacher import TeacherConfig, TeacherPolicy

    tools = make_tools(driver, database, settings)
    teacher_config = TeacherConfig(
        detour_rate=settings.detour_rate, max_rounds=settings.max_rounds, date=settings.date
    )
    if settings.policy == "teacher":
        return TeacherRollouts(TeacherPolicy(tools, teacher_config), tag=settings_tag(settings))
    if settings.policy == "gold-walker":
        return TeacherRollouts(
            GoldWalkerPolicy(driver, database, tools, teacher_config),
            name="gold-walker",
            tag=settings_tag(settings),
        )
    from seekgraph.common.llm.registry import load_backend

    backend = settings.backend
    if settings.policy == "student":
        checkpoint = student_checkpoint(driver, database, settings.student)
        backend = f"transformers:{checkpoint}"
    config = ReactConfig(
        max_rounds=settings.max_rounds,
        max_context_tokens=settings.max_context_tokens,
        max_seconds=settings.max_seconds,
        max_tokens=settings.max_tokens,
    )
    tag = settings_tag(settings, asdict(config))
    return LLMRollouts(
        load_backend(backend),
        tools,
        config,
        name=settings.policy,
        tag=tag,
        date=settings.date,
        checkpoint=checkpoint_id(checkpoint) if checkpoint is not None else "",
    )


def student_checkpoint(driver: neo4j.Driver, database: str | None, student: str) -> Path:
    """The checkpoint folder a `--student` value names: a folder, a TrainingRun id, or (empty)
    the latest finished SFT run's final checkpoint."""
    from seekgraph.graphdb import cypher

    if student and (Path(student) / "config.json").is_file():
        return Path(student).resolve()
    rows = cypher.read(
        driver, "agent/find_student_checkpoint", database=database, run_id=student or None
    )
    if not rows or not rows[0]["checkpoint"]:
        what = f"TrainingRun {student!r}" if student else "a finished SFT run"
        raise AgentError(
            f"no student checkpoint: {what} is not in the graph (train one with "
            "`seekgraph train-sft`, or pass --student FOLDER)"
        )
    path = Path(rows[0]["checkpoint"])
    if not (path / "config.json").is_file():
        raise AgentError(f"the student checkpoint {path} of {rows[0]['run_id']} is missing")
    return path
