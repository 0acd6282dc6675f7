"""The agent stages: web-index, rollout (teacher), rollout-llm (optional), score, filter."""

from __future__ import annotations

from seekgraph.agent.config import FilterConfig, RolloutConfig, ScoreConfig, WebIndexConfig
from seekgraph.graphdb.stages import Stage, StageContext, StageReport


def run_web_index(ctx: StageContext, config: WebIndexConfig) -> StageReport:
    """Embed every page that has no embedding yet (stops early when told; resumable)."""
    from seekgraph.agent.web.index import build_embeddings, embedding_counts
    from seekgraph.common.embeddings import Embedder

    total, done = embedding_counts(ctx.driver, ctx.database)
    with ctx.progress("embedding pages", total - done) as bar:
        return build_embeddings(
            ctx.driver,
            ctx.database,
            Embedder(max_tokens=config.max_tokens or None, backend=config.backend),
            batch_size=config.batch_size,
            max_pages=config.max_pages or None,
            max_seconds=config.max_seconds or None,
            on_batch=bar.update,
        )


def run_rollout(ctx: StageContext, config: RolloutConfig) -> StageReport:
    """Roll out the selected tasks `n` times each; finished (task, index) pairs are skipped.

    Requested task ids that cannot run are reported as rejections with their reason."""
    from seekgraph.agent.policies import make_policy
    from seekgraph.agent.rollouts import load_tasks, parse_shard, run_rollouts, unavailable_tasks
    from seekgraph.graphdb.leases import Leases

    shard = parse_shard(config.shard)
    selection = {
        "kind": config.kind or None,
        "variant": config.variant or None,
        "split": config.split or None,
    }
    tasks = load_tasks(
        ctx.driver,
        ctx.database,
        task_ids=config.tasks or None,
        limit=config.limit,
        shard=shard,
        **selection,
    )
    unavailable = (
        unavailable_tasks(ctx.driver, ctx.database, config.tasks, **selection)
        if config.tasks
        else []
    )
    for r in unavailable:
        ctx.echo(f"not rolled out: {r.record_id}: {r.reason} ({r.detail})")
    policy = make_policy(ctx.driver, ctx.database, config)
    with ctx.progress(f"{config.policy} rollouts", len(tasks) * config.n) as bar:
        return run_rollouts(
            ctx.driver,
            ctx.database,
            tasks,
            policy,
            n=config.n,
            concurrency=config.concurrency,
            shard=config.shard,
            on_done=bar.update,
            unavailable=unavailable,
            leases=Leases(ctx.driver, ctx.database, "rollout", seconds=config.lease_seconds),
            backend_retries=config.backend_retries,
            backend_backoff=config.backend_backoff,
            echo=ctx.echo,
        )


def run_score(ctx: StageContext, config: ScoreConfig) -> StageReport:
    from seekgraph.agent.rollouts import parse_shard
    from seekgraph.agent.scoring import score_rollouts

    return score_rollouts(
        ctx.driver,
        ctx.database,
        policy=config.policy or None,
        rescore=config.rescore,
        shard=parse_shard(config.shard),
    )


def run_filter(ctx: StageContext, config: FilterConfig) -> StageReport:
    """ISR/ISE filter; the kept trajectories as Tongyi JSONL in `<out>/trajectories.jsonl`."""
    from seekgraph.agent.export import export_jsonl
    from seekgraph.agent.filtering import filter_rollouts

    report = filter_rollouts(ctx.driver, ctx.database, config, policy=config.policy or None)
    if config.export:
        path = ctx.out_dir / "trajectories.jsonl"
        n = export_jsonl(
            ctx.driver,
            ctx.database,
            path,
            kept_only=not config.export_all,
            policy=config.policy or None,
        )
        report.notes["exported"] = f"{n} to {path}"
    return report


WEB_INDEX = Stage(
    "web-index",
    "page embeddings (all-MiniLM-L6-v2) for the hybrid search of the offline web",
    WebIndexConfig,
    "web-index",
    run_web_index,
)
ROLLOUT = Stage(
    "rollout",
    "rollouts of the question-only teacher (real search/visit calls, recorded detours), resumable",
    RolloutConfig,
    "rollout",
    run_rollout,
)
ROLLOUT_LLM = Stage(
    "rollout-llm",
    "ReAct rollouts of an LLM; off by default: run it with --only rollout-llm or "
    "--with-training once a model that produces valid turns is configured (default: SmolLM2 "
    "on CPU, 3 tasks, 4 rounds)",
    RolloutConfig,
    "rollout-llm",
    run_rollout,
    optional=True,
    defaults=(
        ("policy", "llm"),
        ("limit", 3),
        ("n", 1),
        ("concurrency", 1),
        ("max_rounds", 4),
        ("max_tokens", 200),
    ),
)
SCORE = Stage(
    "score",
    "ISR, ISE, P/R/F1, accuracy and F-AE of each rollout",
    ScoreConfig,
    "score",
    run_score,
)
FILTER = Stage(
    "filter",
    "keep ISR > alpha and ISE > beta; kept trajectories as Tongyi JSONL",
    FilterConfig,
    "filter",
    run_filter,
)
