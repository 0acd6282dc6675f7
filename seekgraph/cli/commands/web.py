"""`seekgraph web search|visit`: try the offline web's tools by hand."""

from __future__ import annotations

from typing import Any

import click

from seekgraph.cli.context import AppContext, pass_app


@click.group()
def web() -> None:
    """The offline web's tools, as the agent calls them (settings: [rollout])."""


def _tools(app: AppContext, **flags: Any) -> Any:
    from seekgraph.agent.config import RolloutConfig
    from seekgraph.agent.policies import make_tools

    settings = app.config.load(RolloutConfig, "rollout", flags)
    return make_tools(app.driver(), app.database, settings, cached=False)


@web.command("search")
@click.argument("queries", nargs=-1, required=True)
@click.option("--year", type=int, help="filter_year: only pages with this year.")
@click.option("--k", "top_k", type=int, help="Results per query [5].")
@pass_app
def search(app: AppContext, queries: tuple[str, ...], year: int | None, top_k: int | None) -> None:
    """Run the `search` tool and print its observation."""
    args: dict[str, Any] = {"query": list(queries)}
    if year is not None:
        args["filter_year"] = year
    click.echo(_tools(app, top_k=top_k).call("search", args).text)


@web.command("visit")
@click.argument("urls", nargs=-1, required=True)
@click.option("--goal", required=True, help="What to look for on the page(s).")
@pass_app
def visit(app: AppContext, urls: tuple[str, ...], goal: str) -> None:
    """Run the `visit` tool and print its observation."""
    click.echo(_tools(app).call("visit", {"url": list(urls), "goal": goal}).text)
