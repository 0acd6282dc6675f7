"""`seekgraph viz`, `report` and `browse` through the CLI, and the pipeline's report stage."""

from __future__ import annotations

import html
import re
import urllib.parse
from pathlib import Path
from typing import Any

import neo4j
import pytest
from click.testing import CliRunner

from seekgraph.cli import main
from seekgraph.cli.pipeline import STAGES
from seekgraph.graphdb.settings import ConnectionSettings
from seekgraph.viz.browser_guide import (
    EXPLORE_NAMES,
    MAX_GRAPH_NODES,
    browser_url,
    editor_text,
    explore_queries,
    query_for,
    render_guide,
    serve_guide,
)
from seekgraph.viz.report import write_report
from seekgraph.viz.report_data import published_triple_counts
from seekgraph.viz.stages import REPORT
from tests.conftest import run_stage
from tests.viz_sample import (
    BASIC,
    KP,
    LONG,
    PRUNED,
    REVERSE,
    ROLLOUT,
    UNION,
    load_sample,
    long_rollout,
)

N_PLOTS = 10  # funnel, composition, distributions, stages, seconds, tasks, KP, ISR, pruning, loss


@pytest.fixture
def sample_db(clean_db: neo4j.Driver, database: str | None) -> neo4j.Driver:
    load_sample(clean_db, database)
    return clean_db


def _invoke(conn: ConnectionSettings, *args: str) -> tuple[int, str]:
    flags = ["--uri", conn.uri, "--username", conn.username, "--password", conn.password]
    result = CliRunner().invoke(main, [*flags, *args])
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("kind", "subject", "n_nodes"),
    [("task", BASIC, 12), ("kp", KP, 12), ("trajectory", ROLLOUT, 8)],
)
def test_viz_writes_html_and_svg(
    sample_db: neo4j.Driver,
    neo4j_connection: ConnectionSettings,
    tmp_path: Path,
    kind: str,
    subject: str,
    n_nodes: int,
) -> None:
    code, out = _invoke(neo4j_connection, "viz", kind, subject, "--out", str(tmp_path))
    assert code == 0, out
    assert f"{n_nodes} nodes" in out
    html = sorted(tmp_path.glob("*.html"))
    svg = sorted(tmp_path.glob("*.svg"))
    assert len(html) == 1 and len(svg) == 1
    assert html[0].stem == svg[0].stem and "/" not in html[0].name
    assert svg[0].read_text().count('class="node"') == n_nodes


def test_viz_unknown_id_is_a_usage_message(
    sample_db: neo4j.Driver, neo4j_connection: ConnectionSettings, tmp_path: Path
) -> None:
    code, out = _invoke(neo4j_connection, "viz", "task", "missing", "--out", str(tmp_path))
    assert code == 1
    assert "no task with id 'missing'" in out
    assert not list(tmp_path.iterdir())


def test_report_command_writes_every_plot(
    sample_db: neo4j.Driver, neo4j_connection: ConnectionSettings, tmp_path: Path
) -> None:
    out_file = tmp_path / "r.html"
    code, out = _invoke(
        neo4j_connection,
        "report",
        "--html",
        str(out_file),
        "--browser-http",
        "http://h:7474",
        "--browser-bolt",
        "bolt://h:7687",
    )
    assert code == 0, out
    assert f"report: kept {N_PLOTS}" in out
    page = html.unescape(out_file.read_text())
    assert page.count('<img class="plot"') == N_PLOTS
    assert "ISR > 0.3" in page
    assert "2 pass both thresholds" in page
    # the funnel, per variant and in all
    assert "4 kept tasks gave 4 rollouts; the filter kept 2, pruning made 1 shorter copies" in page
    assert "Dataset sample (hybrid): 2 examples, 1 of them pruned trajectories." in page
    # the stored counts, stated as the prune stage states them
    assert "rounds 4 -> 3 (-25.0%), tokens 1800 -> 1100 (-38.9%)" in page
    # a later run that rejected everything is named, the run that kept something is drawn
    assert (
        "Attention: ingest: the latest run (2026-01-01T11:00:00) kept nothing and rejected 3"
        in (page)
    )
    # every example links to pictures next to the report and to Neo4j Browser
    links = re.findall(r'href="([^"]+)"', page)
    local = [x for x in links if not x.startswith("http")]
    assert len(local) >= 4 * 2 and all((tmp_path / x).is_file() for x in local), local
    browser = [x for x in links if x.startswith("http://h:7474/browser/")]
    assert len(browser) >= 4 * 2
    # without the flags, the links go to the server the command runs against
    code, out = _invoke(neo4j_connection, "report", "--html", str(out_file))
    assert code == 0, out
    host = urllib.parse.urlparse(neo4j_connection.uri).hostname
    assert f'href="http://{host}:7474/browser/?dbms=bolt://neo4j@{host}:' in out_file.read_text()


def test_every_bar_of_the_report_carries_its_number(
    sample_db: neo4j.Driver, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from seekgraph.viz import report as report_module
    from seekgraph.viz import report_plots

    figures: list[Any] = []
    monkeypatch.setattr(report_plots, "png", lambda fig: figures.append(fig) or "x")
    report = report_module.build_report(sample_db, published_path=tmp_path / "absent")
    assert len(figures) == report.n_plots == N_PLOTS
    n_bars = 0
    for fig in figures:
        for ax in fig.axes:
            texts = " ".join(t.get_text() for t in ax.texts)
            numbers = [float(x) for x in re.findall(r"\d+(?:\.\d+)?", texts)]
            for container in ax.containers:
                for value in container.datavalues:
                    if value:
                        n_bars += 1
                        assert any(abs(float(value) - n) < 0.051 for n in numbers), (
                            ax.get_title(),
                            value,
                            texts,
                        )
    assert n_bars > 20


def test_report_on_an_empty_graph_explains_each_gap(clean_db: neo4j.Driver, tmp_path: Path) -> None:
    report = write_report(clean_db, tmp_path / "r.html", published_path=tmp_path / "absent")
    assert report.n_plots == 0
    texts = " ".join(s.text for s in report.sections)
    for phrase in (
        "No stage has run yet",
        "No tasks yet",
        "No scored rollouts yet",
        "No pruned trajectories yet",
        "No training runs",
    ):
        assert phrase in texts


def test_published_500_is_optional(tmp_path: Path) -> None:
    assert published_triple_counts(tmp_path / "absent.jsonl") is None
    path = tmp_path / "p.jsonl"
    path.write_text('{"formalization": [[1], [2], [3]]}\n\n{"formalization": [[1]]}\n')
    assert published_triple_counts(path) == [3, 1]


def test_report_stage_is_last_and_reports_its_path(
    sample_db: neo4j.Driver, database: str | None, tmp_path: Path
) -> None:
    assert STAGES[-1].name == "report"
    first = run_stage(REPORT, sample_db, database, out_dir=tmp_path)
    second = run_stage(REPORT, sample_db, database, out_dir=tmp_path)
    assert first.kept == second.kept == N_PLOTS
    assert first.notes["report"] == str((tmp_path / "report.html").resolve())
    assert (tmp_path / "report.html").is_file()


def test_browse_prints_a_link_with_the_right_query(
    sample_db: neo4j.Driver, neo4j_connection: ConnectionSettings
) -> None:
    for subject, name, table in (
        (BASIC, "show_leaper_task", "show_task_answers"),
        (KP, "show_kp_task", "show_task_answers"),
        (ROLLOUT, "show_trajectory", "list_rollout_steps"),
    ):
        code, out = _invoke(neo4j_connection, "browse", subject)
        assert code == 0, out
        graph_link, caption, table_link = out.strip().splitlines()
        assert caption.startswith("table view (")
        for link, query_name in ((graph_link, name), (table_link, table)):
            query = urllib.parse.parse_qs(urllib.parse.urlparse(link).query)
            assert query["cmd"] == ["edit"]
            assert query["arg"][0] == editor_text(query_for(query_name), subject)
            assert repr(subject) in query["arg"][0]
            assert query["dbms"][0].startswith("bolt://neo4j@")
    code, out = _invoke(neo4j_connection, "browse", "missing")
    assert code == 1 and "no task or rollout with id 'missing'" in out
    code, out = _invoke(neo4j_connection, "browse", "--list")
    assert code == 0 and REVERSE in out and "show_kp_task" in out


def test_editor_text_quotes_the_id() -> None:
    text = editor_text(query_for("show_leaper_task"), "it's\\x")
    assert "{task_id: 'it\\'s\\\\x'}" in text
    assert "$task_id" not in text
    url = browser_url("http://h:7474", "bolt://h:7687", query_for("count_stage_results"))
    assert url.startswith("http://h:7474/browser/?dbms=bolt://neo4j@h:7687&cmd=edit&arg=")


def test_every_explore_query_has_a_title_and_is_offered() -> None:
    queries = explore_queries()
    assert [q.name for q in queries] == list(EXPLORE_NAMES)
    assert all(q.title and not q.title.startswith("explore/") for q in queries)
    on_disk = sorted(
        p.stem
        for p in (Path(__file__).parent.parent / "seekgraph" / "cypher" / "explore").glob(
            "*.cypher"
        )
    )
    assert on_disk == sorted(n.split("/")[1] for n in EXPLORE_NAMES)


def test_guide_is_served_with_cors() -> None:
    import urllib.request

    page = render_guide({"task": BASIC})
    assert page.count("<slide") == len(EXPLORE_NAMES) + 1
    assert f":param task_id =&gt; &#x27;{BASIC}&#x27;" in page
    httpd, url = serve_guide(page)
    try:
        with urllib.request.urlopen(url.replace("localhost", "127.0.0.1"), timeout=5) as resp:
            assert resp.headers["Access-Control-Allow-Origin"] == "*"
            assert resp.read().decode() == page
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert re.match(r"http://localhost:\d+/seekgraph.html", url)


def browser_node_count(driver: neo4j.Driver, name: str, subject_id: str) -> int:
    """Nodes Neo4j Browser draws for a graph query: those of every returned path."""
    text = editor_text(query_for(name), subject_id)
    with driver.session() as session:
        return len(session.run(text).graph().nodes)


def test_browser_graph_queries_are_focused(sample_db: neo4j.Driver, database: str | None) -> None:
    """Browser drew 120 nodes and 360 relationships for a union task; each graph query now
    draws at most 40 (the rest is in its table view), also for a 120-step rollout."""
    load_sample(sample_db, database, long_rollout(120))
    counts = {}
    for query in explore_queries():
        if not query.draws_graph:
            continue
        ids = {"task": (BASIC, UNION, REVERSE, KP), "rollout": (ROLLOUT, PRUNED, LONG)}
        for subject in ids[query.kind]:
            counts[(query.name, subject)] = browser_node_count(sample_db, query.name, subject)
    # the rollout, its task, the first 20 steps and the 7 targets they revealed (of 162 nodes)
    assert counts[("explore/show_rollout_steps", LONG)] == 1 + 1 + 20 + 7
    assert max(counts.values()) <= MAX_GRAPH_NODES, counts
    assert counts[("explore/show_leaper_task", UNION)] > 0
