"""`seekgraph web`, `seekgraph rollout`, `seekgraph score`, `seekgraph filter`.

Heavy imports (sentence-transformers, torch, the LLM backends) happen inside the commands.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
import neo4j

from agent.config import AgentSettings
from agent.errors import AgentError
from graphdb.errors import GraphDBError
from seekgraph.context import AppContext, pass_app


def _settings(app: AppContext, **flags: Any) -> AgentSettings:
    return AgentSettings.from_section(app.section("agent"), **flags)


def _fail(e: Exception) -> click.ClickException:
    return click.ClickException(str(e))


def make_tools(
    driver: neo4j.Driver, database: str | None, settings: AgentSettings, *, cached: bool = True
) -> Any:
    """WebTools (hybrid when pages carry embeddings), behind the ToolCall cache if `cached`."""
    from agent.web.index import embedding_counts
    from agent.web.tools import CachedTools, WebTools
    from common.embeddings import Embedder

    embedder = None
    if settings.hybrid and embedding_counts(driver, database)[1] > 0:
        embedder = Embedder()
    summary = None
    if settings.summary_backend:
        from common.llm.registry import load_backend

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
    return CachedTools(tools) if cached else tools


@click.group()
def web() -> None:
    """The offline web: build the page embeddings, try search and visit."""


@web.command("index")
@click.option("--batch-size", type=int, help="Pages per embedding batch [256].")
@click.option("--max-pages", type=int, help="Stop after this many pages (resume later).")
@click.option("--max-seconds", type=float, help="Stop after this long (resume later).")
@click.option(
    "--max-tokens",
    type=click.IntRange(min=8),
    help="Word pieces embedded per page (model default 256; 128, the length it was trained "
    "on, is about twice as fast).",
)
@pass_app
def web_index(
    app: AppContext,
    batch_size: int | None,
    max_pages: int | None,
    max_seconds: float | None,
    max_tokens: int | None,
) -> None:
    """Embed every page without an embedding (all-MiniLM-L6-v2, CPU); resumable."""
    from agent.web.index import build_embeddings, embedding_counts
    from common.embeddings import Embedder
    from graphdb.schema import apply_schema
    from graphdb.stages import save_report

    settings = _settings(app, embed_batch=batch_size)
    driver = app.driver()
    try:
        apply_schema(driver, app.database)
        total = embedding_counts(driver, app.database)
        with click.progressbar(length=total[0] - total[1], label="embedding pages") as bar:
            report = build_embeddings(
                driver,
                app.database,
                Embedder(max_tokens=max_tokens),
                batch_size=settings.embed_batch,
                max_pages=max_pages,
                max_seconds=max_seconds,
                on_batch=bar.update,
            )
        save_report(driver, report, app.database)
    except (AgentError, GraphDBError, neo4j.exceptions.Neo4jError) as e:
        raise _fail(e) from e
    for line in report.summary_lines():
        click.echo(line)


@web.command("search")
@click.argument("queries", nargs=-1, required=True)
@click.option("--year", type=int, help="filter_year: only pages with this year.")
@click.option("--k", "top_k", type=int, help="Results per query [5].")
@pass_app
def web_search(
    app: AppContext, queries: tuple[str, ...], year: int | None, top_k: int | None
) -> None:
    """Run the `search` tool and print its observation."""
    settings = _settings(app, top_k=top_k)
    tools = make_tools(app.driver(), app.database, settings, cached=False)
    args: dict[str, Any] = {"query": list(queries)}
    if year is not None:
        args["filter_year"] = year
    click.echo(tools.call("search", args).text)


@web.command("visit")
@click.argument("urls", nargs=-1, required=True)
@click.option("--goal", required=True, help="What to look for on the page(s).")
@pass_app
def web_visit(app: AppContext, urls: tuple[str, ...], goal: str) -> None:
    """Run the `visit` tool and print its observation."""
    tools = make_tools(app.driver(), app.database, _settings(app), cached=False)
    click.echo(tools.call("visit", {"url": list(urls), "goal": goal}).text)


@click.command()
@click.option(
    "--policy",
    type=click.Choice(["teacher", "llm"]),
    default="teacher",
    show_default=True,
    help="The plan-following teacher or an LLM in the ReAct loop.",
)
@click.option("--backend", help="LLM spec: transformers | openai:URL[,URL]#MODEL | vllm:MODEL.")
@click.option("--kind", type=click.Choice(["leaper", "shaper"]), help="Only tasks of this kind.")
@click.option("--variant", help="Only tasks of this variant (basic, union, reverse-union, kp).")
@click.option("--split", help="Only tasks of this split (train, heldout).")
@click.option("--task", "task_ids", multiple=True, help="Only these task ids (repeatable).")
@click.option("--limit", type=int, default=1_000_000, help="At most this many tasks.")
@click.option("--n", type=int, help="Rollouts per task [3].")
@click.option("--shard", help="Run shard i of n, as i/n (tasks split by a hash of their id).")
@click.option("--concurrency", type=int, help="Rollout threads [2].")
@click.option("--max-rounds", type=int, help="Round budget [100].")
@click.option("--max-context-tokens", type=int, help="Context budget in tokens [32000].")
@click.option("--max-seconds", type=float, help="Wall time per rollout [600].")
@click.option("--max-tokens", type=int, help="Tokens per LLM message [512].")
@click.option("--detour-rate", type=float, help="Teacher: detour probability per action.")
@click.option("--summary-backend", help="LLM spec for visit summaries (default: extractive).")
@pass_app
def rollout(
    app: AppContext,
    policy: str,
    backend: str | None,
    kind: str | None,
    variant: str | None,
    split: str | None,
    task_ids: tuple[str, ...],
    limit: int,
    n: int | None,
    shard: str | None,
    concurrency: int | None,
    max_rounds: int | None,
    max_context_tokens: int | None,
    max_seconds: float | None,
    max_tokens: int | None,
    detour_rate: float | None,
    summary_backend: str | None,
) -> None:
    """Roll out tasks (resumable: finished (task, index) pairs are skipped)."""
    from agent.rollouts import load_tasks, parse_shard, run_rollouts, unavailable_tasks
    from graphdb.stages import save_report

    settings = _settings(
        app,
        backend=backend,
        n=n,
        concurrency=concurrency,
        max_rounds=max_rounds,
        max_context_tokens=max_context_tokens,
        max_seconds=max_seconds,
        max_tokens=max_tokens,
        detour_rate=detour_rate,
        summary_backend=summary_backend,
    )
    driver = app.driver()
    try:
        shard_pair = parse_shard(shard)
        tasks = load_tasks(
            driver,
            app.database,
            kind=kind,
            variant=variant,
            split=split,
            task_ids=task_ids or None,
            limit=limit,
            shard=shard_pair,
        )
        unavailable = (
            unavailable_tasks(
                driver, app.database, task_ids, kind=kind, variant=variant, split=split
            )
            if task_ids
            else []
        )
        for r in unavailable:
            click.echo(f"not rolled out: {r.record_id}: {r.reason} ({r.detail})")
        runner = make_policy(driver, app.database, policy, settings)
        with click.progressbar(length=len(tasks) * settings.n, label=f"{policy} rollouts") as bar:
            report = run_rollouts(
                driver,
                app.database,
                tasks,
                runner,
                n=settings.n,
                concurrency=settings.concurrency,
                shard=shard or "",
                on_done=bar.update,
                unavailable=unavailable,
            )
        save_report(driver, report, app.database)
    except (AgentError, GraphDBError, neo4j.exceptions.Neo4jError) as e:
        raise _fail(e) from e
    for line in report.summary_lines():
        click.echo(line)


def make_policy(
    driver: neo4j.Driver, database: str | None, policy: str, settings: AgentSettings
) -> Any:
    """The teacher or an LLM policy, with cached tools."""
    from agent.react import ReactConfig
    from agent.rollouts import LLMRollouts, TeacherRollouts
    from agent.teacher import TeacherConfig, TeacherPolicy

    tools = make_tools(driver, database, settings)
    if policy == "teacher":
        return TeacherRollouts(
            TeacherPolicy(
                driver,
                database,
                tools,
                TeacherConfig(detour_rate=settings.detour_rate, max_rounds=settings.max_rounds),
            )
        )
    from common.llm.registry import load_backend

    config = ReactConfig(
        max_rounds=settings.max_rounds,
        max_context_tokens=settings.max_context_tokens,
        max_seconds=settings.max_seconds,
        max_tokens=settings.max_tokens,
    )
    return LLMRollouts(load_backend(settings.backend), tools, config)


@click.command()
@click.option("--policy", type=click.Choice(["teacher", "llm"]), help="Only this policy.")
@click.option("--rescore", is_flag=True, help="Also rollouts that already have scores.")
@click.option("--shard", help="Score shard i of n (by rollout id), as i/n.")
@pass_app
def score(app: AppContext, policy: str | None, rescore: bool, shard: str | None) -> None:
    """Compute ISR, ISE, P/R/F1, accuracy and F-AE of stored rollouts."""
    from agent.rollouts import parse_shard
    from agent.scoring import score_rollouts
    from graphdb.stages import save_report

    driver = app.driver()
    try:
        report = score_rollouts(
            driver, app.database, policy=policy, rescore=rescore, shard=parse_shard(shard)
        )
        save_report(driver, report, app.database)
    except (AgentError, GraphDBError, neo4j.exceptions.Neo4jError) as e:
        raise _fail(e) from e
    for line in report.summary_lines():
        click.echo(line)


@click.command("filter")
@click.option("--alpha", type=float, help="Keep only ISR > alpha [0.3].")
@click.option("--beta", type=float, help="Keep only ISE > beta [0.1].")
@click.option("--policy", type=click.Choice(["teacher", "llm"]), help="Only this policy.")
@click.option(
    "--export",
    "export_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the kept trajectories as Tongyi JSONL here.",
)
@click.option("--all", "export_all", is_flag=True, help="Export rejected trajectories too.")
@pass_app
def filter_command(
    app: AppContext,
    alpha: float | None,
    beta: float | None,
    policy: str | None,
    export_path: Path | None,
    export_all: bool,
) -> None:
    """Keep trajectories with ISR > alpha and ISE > beta; rejects keep their reason."""
    from agent.export import export_jsonl
    from agent.filtering import FilterConfig, filter_rollouts
    from graphdb.stages import save_report

    settings = _settings(app, alpha=alpha, beta=beta)
    driver = app.driver()
    try:
        report = filter_rollouts(
            driver, app.database, FilterConfig(settings.alpha, settings.beta), policy=policy
        )
        save_report(driver, report, app.database)
        if export_path is not None:
            lines = export_jsonl(
                driver, app.database, export_path, kept_only=not export_all, policy=policy
            )
            report.notes["exported"] = f"{lines} trajectories to {export_path}"
    except (AgentError, GraphDBError, neo4j.exceptions.Neo4jError, OSError) as e:
        raise _fail(e) from e
    for line in report.summary_lines():
        click.echo(line)
