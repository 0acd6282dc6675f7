"""`seekgraph viz`, `report` and `browse` through the CLI, and the pipeline's report stage."""

from __future__ import annotations

import re
import urllib.parse
from pathlib import Path

import neo4j
import pytest
from click.testing import CliRunner

from graphdb.settings import ConnectionSettings
from seekgraph.cli import main
from seekgraph.pipeline import STAGES
from tests.conftest import run_stage
from tests.viz_sample import BASIC, KP, REVERSE, ROLLOUT, load_sample
from viz.browser_guide import (
    EXPLORE_NAMES,
    browser_url,
    editor_text,
    explore_queries,
    query_for,
    render_guide,
    serve_guide,
)
from viz.report import published_triple_counts, write_report
from viz.stages import REPORT


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
    [("task", BASIC, 12), ("kp", KP, 11), ("trajectory", ROLLOUT, 10)],
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
    code, out = _invoke(neo4j_connection, "report", "--html", str(out_file))
    assert code == 0, out
    assert "report: kept 7" in out
    page = out_file.read_text()
    assert page.count('<img class="plot"') == 7
    assert "ISR &gt; 0.3" in page or "ISR > 0.3" in page
    assert "2 pass both thresholds" in page
    assert "tokens saved: mean 39%" in page


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
    assert first.kept == second.kept == 7
    assert first.notes["report"] == str((tmp_path / "report.html").resolve())
    assert (tmp_path / "report.html").is_file()


def test_browse_prints_a_link_with_the_right_query(
    sample_db: neo4j.Driver, neo4j_connection: ConnectionSettings
) -> None:
    for subject, name in (
        (BASIC, "show_leaper_task"),
        (KP, "show_kp_task"),
        (ROLLOUT, "show_trajectory"),
    ):
        code, out = _invoke(neo4j_connection, "browse", subject)
        assert code == 0, out
        query = urllib.parse.parse_qs(urllib.parse.urlparse(out.strip()).query)
        assert query["cmd"] == ["edit"]
        assert query["arg"][0] == editor_text(query_for(name), subject)
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
        p.stem for p in (Path(__file__).parent.parent / "cypher" / "explore").glob("*.cypher")
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
