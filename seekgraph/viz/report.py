"""`seekgraph report`: the page a researcher reads first, one HTML file over the whole graph.

It opens with the funnel of each task variant (tasks -> rollouts -> kept -> pruned ->
examples) and the dataset's composition, then the distributions (answers per task, |R|, ISR,
ISE, F1, question length), one example task per variant with links to its pictures and to
Neo4j Browser, and the bookkeeping (records and seconds per stage, rejections, KP tasks beside
the published ones, pruning, training). Each section reads plain rows with a query from
`seekgraph/cypher/report/` and draws one matplotlib figure, embedded as a base64 PNG; every bar carries
its number. Rounds and tokens are the values the rollout and prune stages stored (the wire
format's one count), so the report says what the stage summaries said. A section whose data
does not exist yet says so in a sentence instead of drawing an empty plot, so the report is
useful after any prefix of the pipeline.

This module assembles the page (the sections in reading order, the HTML) and is the stage;
the sections live in `report_data_sections` (what the data is), `report_examples` (the example
table and its pictures) and `report_run_sections` (how it was made), over `report_data` (the
queries) and `report_plots` (the figures).
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import neo4j

from seekgraph.common.config import option
from seekgraph.graphdb.stages import StageContext, StageReport
from seekgraph.viz.report_data import Section, published_triple_counts, thresholds
from seekgraph.viz.report_data_sections import (
    composition_section,
    distributions_section,
    funnel_section,
    kp_section,
    tasks_section,
)
from seekgraph.viz.report_examples import Links, examples_section
from seekgraph.viz.report_run_sections import (
    isr_section,
    pruning_section,
    seconds_section,
    stages_section,
    training_section,
)


@dataclass
class Report:
    sections: list[Section] = field(default_factory=list)

    @property
    def n_plots(self) -> int:
        return sum(1 for s in self.sections if s.image)


def build_report(
    driver: neo4j.Driver,
    database: str | None = None,
    published_path: Path | None = None,
    links: Links | None = None,
) -> Report:
    """Every section of the report, in reading order: what the data is, then how it was made."""
    report = Report()
    report.sections = [
        funnel_section(driver, database),
        composition_section(driver, database),
        distributions_section(driver, database),
        examples_section(driver, database, links or Links()),
        stages_section(driver, database),
        seconds_section(driver, database),
        tasks_section(driver, database),
        kp_section(driver, database, published_triple_counts(published_path)),
        isr_section(driver, database, thresholds(driver, database)),
        pruning_section(driver, database),
        training_section(driver, database),
    ]
    return report


def _table_html(table: tuple[list[str], list[list[str]]]) -> str:
    headers, rows = table
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table class="data"><tr>{head}</tr>{body}</table>'


def render(report: Report) -> str:
    """The report as one HTML page (images inline; tables' cells are escaped HTML)."""
    parts = []
    for s in report.sections:
        img = (
            f'<img class="plot" alt="{html.escape(s.title)}" src="data:image/png;base64,{s.image}">'
            if s.image
            else ""
        )
        cls = "section" if s.image or s.table else "section empty"
        parts.append(
            f'<section class="{cls}"><h2>{html.escape(s.title)}</h2>'
            f"<p>{html.escape(s.text)}</p>{img}"
            + (_table_html(s.table) if s.table else "")
            + "</section>"
        )
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        "<title>seekgraph report</title><style>"
        "body{font-family:DejaVu Sans,Arial,sans-serif;max-width:1150px;margin:20px auto;"
        "color:#222;padding:0 12px}h1{font-size:22px}h2{font-size:17px;margin-bottom:4px}"
        "section{border-top:1px solid #ddd;padding:8px 0}section.empty p{color:#777}"
        "img.plot{max-width:100%}table.data{border-collapse:collapse;font-size:12px;"
        "margin:6px 0}table.data td,table.data th{border:1px solid #ccc;padding:2px 6px;"
        "vertical-align:top}table.data th{background:#f3f3f3}</style></head><body>"
        f"<h1>seekgraph report</h1><p>Generated {stamp}; {report.n_plots} plots. Every number "
        "comes from the graph (StageRun, Rejection, Task, Rollout, Dataset and TrainingRun "
        "nodes).</p>" + "".join(parts) + "</body></html>\n"
    )


def write_report(
    driver: neo4j.Driver,
    path: Path,
    database: str | None = None,
    published_path: Path | None = None,
    links: Links | None = None,
) -> Report:
    """Write the report to `path`; the example pictures go to `<folder of path>/viz/` unless
    `links` says otherwise."""
    path.parent.mkdir(parents=True, exist_ok=True)
    links = links or Links(viz_dir=path.parent / "viz")
    report = build_report(driver, database, published_path, links)
    path.write_text(render(report), encoding="utf-8")
    return report


@dataclass(frozen=True)
class ReportConfig:
    """Settings of the `report` stage (config section ``[report]``)."""

    html: Path | None = option(None, "The HTML file to write (default: <out>/report.html).")
    published: Path | None = option(
        None, "webshaper.500.jsonl to compare KP tasks with (default: ../shared/data's)."
    )
    browser_http: str = option(
        "", "Neo4j Browser's HTTP address for the report's links (default: the server's)."
    )
    browser_bolt: str = option(
        "", "The Bolt address those Browser links connect to (default: the server's)."
    )


def run_report(ctx: StageContext, config: ReportConfig) -> StageReport:
    """Write the report and the pictures of its examples (re-running rewrites them)."""
    stage = StageReport("report")
    path = config.html or ctx.out_dir / "report.html"
    links = Links(path.parent / "viz", config.browser_http, config.browser_bolt)
    report = write_report(ctx.driver, path, ctx.database, config.published, links)
    stage.keep(report.n_plots)
    empty = [s.title for s in report.sections if not s.image and not s.table]
    if empty:
        stage.notes["sections without data"] = len(empty)
    stage.notes["report"] = str(path.resolve())
    return stage
