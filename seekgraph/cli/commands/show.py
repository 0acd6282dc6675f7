"""`seekgraph show ...`: read-only views of what the stages wrote."""

from __future__ import annotations

import click

from seekgraph.cli.context import AppContext, pass_app


@click.group()
def show() -> None:
    """Read-only views: ingested tables, an entity's facts, relations, training provenance."""


@show.command("tables")
@pass_app
def tables(app: AppContext) -> None:
    """Tables kept and rejected by reason, shared entities, node and relationship counts."""
    from seekgraph.synth.ingest.inspect import status_lines

    for line in status_lines(app.driver(), app.database):
        click.echo(line)


@show.command("entity")
@click.argument("entity_id")
@pass_app
def entity(app: AppContext, entity_id: str) -> None:
    """The facts of one entity, e.g. `seekgraph show entity /wiki/Kazuo_Ishiguro`."""
    from seekgraph.synth.ingest.inspect import entity_facts
    from seekgraph.synth.ingest.records import wiki_id

    key = entity_id if entity_id.startswith("unlinked:") else wiki_id(entity_id)
    facts = entity_facts(app.driver(), key, app.database)
    if not facts:
        raise click.ClickException(f"no facts for {key}")
    for f in facts:
        click.echo(f"{f['relation']:<24} {f['target']:<40} {f['table_id']} row {f['row']}")


@show.command("relations")
@pass_app
def relations(app: AppContext) -> None:
    """Every relation with the headers mapped to it (and how: rule, embedding, human)."""
    from seekgraph.synth.relations import list_mappings

    for row in list_mappings(app.driver(), app.database):
        heads = ", ".join(
            f"{h['header']!r}({h['method']}"
            + (f" {h['score']:.2f}" if h["method"] == "embedding" else "")
            + ")"
            for h in row["headers"][:8]
        )
        more = len(row["headers"]) - 8
        click.echo(
            f"{row['relation']:<28} {row['columns']:>6}  {heads}"
            + (f" +{more} more" if more > 0 else "")
        )


@show.command("trained-on")
@click.argument("checkpoint")
@click.option(
    "--dropped",
    is_flag=True,
    help="List the dataset examples the run did NOT train on, with the reason, instead.",
)
@pass_app
def trained_on(app: AppContext, checkpoint: str, dropped: bool) -> None:
    """Which trajectories trained CHECKPOINT (a checkpoint path or a run id)."""
    from seekgraph.training.runs import checkpoint_trajectories, dropped_examples

    if dropped:
        left_out = dropped_examples(app.driver(), app.database, checkpoint)
        for r in left_out:
            click.echo(f"{r['rollout_id']}\t{r['reason']}\t{r['tokens']} tokens")
        click.echo(f"{len(left_out)} examples dropped")
        return
    rows = checkpoint_trajectories(app.driver(), app.database, checkpoint)
    if not rows:
        raise click.ClickException(f"no training run with checkpoint {checkpoint!r}")
    for r in rows:
        extra = f" (pruned from {r['original_id']})" if r["pruned"] else ""
        click.echo(f"{r['rollout_id']}\t{r['task_id']}\t{r['variant']}{extra}")
    click.echo(
        f"{len(rows)} trajectories; run {rows[0]['run_id']}, dataset {rows[0]['dataset_id']}"
    )
