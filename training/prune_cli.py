"""`seekgraph prune`: WebClipper pruning of the stored trajectories (see training.stategraph)."""

from __future__ import annotations

import click

from graphdb.errors import GraphDBError, SeekgraphError
from graphdb.stages import save_report
from seekgraph.context import AppContext, pass_app


@click.command("prune")
@click.option(
    "--extractor",
    type=click.Choice(["rule", "llm"]),
    help="State-graph constructions for the vote: rule (three evidence granularities, "
    "default) or llm (three runs of --extractor-backend).",
)
@click.option(
    "--extractor-backend",
    metavar="SPEC",
    help="LLM spec for --extractor llm (default: transformers = SmolLM2 on CPU).",
)
@click.option(
    "--rewrite-backend",
    metavar="SPEC",
    help="LLM spec writing rewrite candidates (default: transformers = SmolLM2).",
)
@click.option(
    "--rewrite/--no-rewrite",
    default=None,
    help="Rewrite thoughts whose context lost pruned steps (default on). With "
    "--no-rewrite the thoughts stay and pruned rollouts say rewrite_status="
    "not_rewritten.",
)
@click.option(
    "--candidates",
    "n_candidates",
    type=click.IntRange(1, 16),
    help="Rewrite candidates per thought (default 3).",
)
@click.option(
    "--max-new-tokens",
    type=click.IntRange(8, 1024),
    help="Length limit of one rewrite candidate (default 64).",
)
@click.option(
    "--include-unfiltered",
    is_flag=True,
    default=None,
    help="Also prune rollouts the filter stage did not keep.",
)
@click.option("--rollout", "rollout_ids", multiple=True, help="Only this rollout id (repeatable).")
@click.option("--limit", type=click.IntRange(1), help="At most this many trajectories.")
@click.option("--chunk-size", type=click.IntRange(1), help="Trajectories per write batch.")
@pass_app
def prune(app: AppContext, rollout_ids: tuple[str, ...], **flags: object) -> None:
    """Prune trajectories to their minimum necessary DAG (2-of-3 vote), rewrite, store.

    Pruned trajectories are stored as (:Rollout {pruned: true})-[:PRUNED_FROM]->(original);
    originals get prune_status, so a re-run skips finished work. Settings: flags > [prune]
    section of the config file > defaults.
    """
    from training.stategraph.errors import ClipperError
    from training.stategraph.prune import PruneConfig, prune_rollouts

    try:
        config = PruneConfig.from_section(
            app.section("prune"), rollout_ids=rollout_ids or None, **flags
        )
    except (ClipperError, TypeError) as e:
        raise click.ClickException(str(e)) from e
    driver = app.driver()
    bar: list[object] = []

    def start(total: int) -> None:
        click.echo(
            f"pruning {total} trajectories (extractor {config.extractor}, rewrite "
            f"{'on: ' + config.rewrite_backend if config.rewrite else 'off'})"
        )
        progress = click.progressbar(length=max(total, 1), label="prune")
        progress.__enter__()
        bar.append(progress)

    def advance(n: int) -> None:
        bar[0].update(n)  # type: ignore[attr-defined]

    try:
        result = prune_rollouts(driver, app.database, config, on_start=start, on_progress=advance)
    except (ClipperError, SeekgraphError, GraphDBError) as e:
        raise click.ClickException(str(e)) from e
    finally:
        if bar:
            bar[0].__exit__(None, None, None)  # type: ignore[attr-defined]
    report = result.report.finish()
    save_report(driver, report, app.database)
    for line in report.summary_lines():
        click.echo(line)
