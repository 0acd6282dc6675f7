"""The report's example table: one task per variant, with the viz pages written beside the report
(answers, picture, trajectory) and links to the same subgraphs in Neo4j Browser."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import neo4j

from seekgraph.common.answers import gold_records
from seekgraph.viz.report_data import Section, read_rows


@dataclass(frozen=True)
class Links:
    """Where the example table's links go: the folder for the viz pages (None: no pages) and
    Neo4j Browser's addresses (empty: no Browser links)."""

    viz_dir: Path | None = None
    http_url: str = ""
    bolt_uri: str = ""
    username: str = "neo4j"


def _page_link(path: Path | None, viz_dir: Path | None, text: str) -> str:
    if path is None or viz_dir is None:
        return ""
    return f'<a href="{html.escape(viz_dir.name + "/" + path.name)}">{html.escape(text)}</a>'


def _example_pages(
    driver: neo4j.Driver, database: str | None, row: dict[str, Any], viz_dir: Path
) -> dict[str, Path]:
    """The viz pages of one example (answers, picture, trajectory), written into `viz_dir`."""
    from seekgraph.viz import graphs, vizgraph
    from seekgraph.viz.answers import load_answers, write_answers_html
    from seekgraph.viz.errors import VizError
    from seekgraph.viz.html import write_html

    def stem(kind: str, subject: str) -> str:
        return f"{kind}-{re.sub(r'[^A-Za-z0-9._-]+', '_', subject)[:80]}.html"

    pages: dict[str, Path] = {}
    task_id = str(row["task_id"])
    try:
        view = load_answers(driver, database, task_id)
        pages["answers"] = write_answers_html(view, viz_dir / stem("answers", task_id))
        kind = "kp" if row["kind"] == "shaper" else "task"
        vg = graphs.load(
            driver, kind, task_id, database, options=vizgraph.Options(max_anchors=4, max_answers=20)
        )
        pages["picture"] = write_html(vg, viz_dir / stem(kind, task_id))
        if row["rollout_id"]:
            kind = "trajectory" if row["has_state_graph"] else "steps"
            vg = graphs.load(driver, kind, str(row["rollout_id"]), database)
            pages["trajectory"] = write_html(vg, viz_dir / stem(kind, str(row["rollout_id"])))
    except VizError:
        pass  # a picture that cannot be drawn is left out of the table, not the report
    return pages


def examples_section(driver: neo4j.Driver, database: str | None, links: Links) -> Section:
    from seekgraph.viz.browser_guide import TABLE_VIEW, browser_url, query_for

    rows = read_rows(driver, "report/find_examples", database)
    title = "One example task per variant, with its pictures and Neo4j Browser"
    if not rows:
        return Section(title, "No kept tasks yet.")
    table_rows = []
    for row in rows:
        pages = (
            _example_pages(driver, database, row, links.viz_dir)
            if links.viz_dir is not None
            else {}
        )
        viz = " · ".join(
            x
            for x in (
                _page_link(pages.get("answers"), links.viz_dir, "answers"),
                _page_link(pages.get("picture"), links.viz_dir, "picture"),
                _page_link(pages.get("trajectory"), links.viz_dir, "trajectory"),
            )
            if x
        )
        browser = ""
        if links.http_url and links.bolt_uri:
            name = "explore/show_kp_task" if row["kind"] == "shaper" else "explore/show_leaper_task"
            parts = [(query_for(name), row["task_id"], "graph")]
            parts.append((query_for(TABLE_VIEW[name]), row["task_id"], "table"))
            if row["rollout_id"]:
                steps = (
                    "explore/show_trajectory"
                    if row["has_state_graph"]
                    else ("explore/show_rollout_steps")
                )
                parts.append((query_for(steps), row["rollout_id"], "rollout"))
            browser = " · ".join(
                f'<a href="{html.escape(browser_url(links.http_url, links.bolt_uri, q, i, links.username))}">{t}</a>'
                for q, i, t in parts
            )
        question = str(row["question"] or "")
        rollout = (
            f"{html.escape(str(row['rollout_id']))} ({row['rounds']} rounds, {row['tokens']} tokens"
            + (", pruned copy" if row["pruned_id"] else "")
            + ")"
            if row["rollout_id"]
            else "none"
        )
        table_rows.append(
            [
                html.escape(str(row["variant"])),
                f"<code>{html.escape(str(row['task_id']))}</code>",
                html.escape(question[:220] + ("…" if len(question) > 220 else "")),
                str(len(gold_records(row["answer_json"]))),
                str(row["n_targets"] or ""),
                rollout,
                viz or "–",
                browser or "–",
            ]
        )
    headers = ["variant", "task", "question", "answers", "|R|", "rollout", "pictures", "Browser"]
    text = (
        "Pictures are files next to the report (answers: the gold records and the rows proving "
        "them; picture: the task's graph; trajectory: its state graph)."
        + (
            ""
            if links.http_url
            else " Browser links need the server's address (report --browser-http/--browser-bolt)."
        )
    )
    return Section(title, text, table=(headers, table_rows))
