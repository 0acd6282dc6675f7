"""Real headless Chromium (Debian's `chromium` + `chromium-driver`, driven by Selenium) checks:
a `viz` page draws every node, the report shows its plots, and Neo4j Browser from the session
server loads, logs in, applies seekgraph's style and draws the query `seekgraph browse` links to.

Screenshots go to $SEEKGRAPH_TEST_ARTIFACTS (default `test-artifacts/`, git-ignored).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import neo4j
import pytest

from seekgraph.graphdb.settings import ServerSettings
from seekgraph.viz import graphs
from seekgraph.viz.browser_guide import MAX_GRAPH_NODES, browser_url, editor_text, query_for
from seekgraph.viz.html import write_html
from seekgraph.viz.report import write_report
from seekgraph.viz.report_examples import Links
from tests.conftest import REPO_ROOT
from tests.viz_sample import KP, REVERSE, ROLLOUT, load_sample

pytestmark = pytest.mark.browser
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def _artifacts() -> Path:
    path = Path(os.environ.get("SEEKGRAPH_TEST_ARTIFACTS", "test-artifacts"))
    path = path if path.is_absolute() else REPO_ROOT / path
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One headless Chromium for the module: no sandbox (root), no background networking."""
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        message = (
            "Debian's chromium and chromium-driver are needed "
            "(apt-get install -y chromium chromium-driver)"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-default-apps",
        "--metrics-recording-only",
        "--window-size=1400,900",
        "--hide-scrollbars",
    ):
        options.add_argument(arg)
    browser = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    browser.set_page_load_timeout(120)  # generous: CI shares 2 busy cores
    try:
        yield browser
    finally:
        browser.quit()


def _wait(predicate: Any, timeout: float = 30.0, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")


@pytest.fixture
def sample_db(clean_db: neo4j.Driver, database: str | None) -> neo4j.Driver:
    load_sample(clean_db, database)
    return clean_db


def test_viz_pages_draw_every_node(chromium: Any, sample_db: neo4j.Driver, tmp_path: Path) -> None:
    artifacts = _artifacts()
    for kind, subject in (
        ("task", REVERSE),
        ("kp", KP),
        ("trajectory", ROLLOUT),
        ("steps", ROLLOUT),
    ):
        vg = graphs.load(sample_db, kind, subject)
        page = write_html(vg, tmp_path / f"{kind}.html")
        chromium.set_window_size(1400, 900)
        chromium.get(page.as_uri())
        drawn = _wait(
            lambda: chromium.execute_script(
                "return window.seekgraph && window.seekgraph.drawn "
                "&& window.seekgraph.network.body.nodeIndices.length"
            ),
            20,
            f"{kind} drawn",
        )
        assert drawn == len(vg.nodes)
        assert chromium.find_element("id", "legend").text.startswith("Legend")
        # Canvas really painted (not blank): some pixels differ from the background.
        painted = chromium.execute_script(
            "var c=document.querySelector('#graph canvas');var d=c.getContext('2d')"
            ".getImageData(0,0,c.width,c.height).data;var n=0;"
            "for(var i=0;i<d.length;i+=16){if(d[i]<240||d[i+1]<240||d[i+2]<240)n++;}return n;"
        )
        assert painted > 500
        chromium.save_screenshot(str(artifacts / f"viz-{kind}.png"))


def test_report_renders_its_plots_and_its_links_open(
    chromium: Any, sample_db: neo4j.Driver, tmp_path: Path
) -> None:
    links = Links(tmp_path / "viz", "http://127.0.0.1:7474", "bolt://127.0.0.1:7687")
    report = write_report(sample_db, tmp_path / "report.html", links=links)
    chromium.set_window_size(1200, 900)
    chromium.get((tmp_path / "report.html").as_uri())
    sizes = _wait(
        lambda: chromium.execute_script(
            "var imgs=[...document.querySelectorAll('img.plot')];"
            "return imgs.every(i=>i.complete) && imgs.map(i=>i.naturalWidth);"
        ),
        20,
        "plots",
    )
    assert len(sizes) == report.n_plots == 10
    assert all(w > 300 for w in sizes)
    # the funnel table and the examples table are there, with a link per picture
    tables = chromium.execute_script("return document.querySelectorAll('table.data').length")
    assert tables == 2
    hrefs = chromium.execute_script(
        "return [...document.querySelectorAll('table.data a')].map(a => a.getAttribute('href'))"
    )
    local = [h for h in hrefs if not h.startswith("http")]
    assert len(local) >= 8 and all((tmp_path / h).is_file() for h in local), hrefs
    assert sum(h.startswith("http://127.0.0.1:7474/browser/") for h in hrefs) >= 8
    height = chromium.execute_script("return document.body.scrollHeight")
    chromium.set_window_size(1200, min(int(height) + 50, 8000))
    chromium.save_screenshot(str(_artifacts() / "report.png"))
    # a picture the report links to opens and draws
    picture = next(h for h in local if h.startswith("viz/task-"))
    chromium.set_window_size(1400, 900)
    chromium.get((tmp_path / picture).as_uri())
    drawn = _wait(
        lambda: chromium.execute_script(
            "return window.seekgraph && window.seekgraph.drawn "
            "&& window.seekgraph.network.body.nodeIndices.length"
        ),
        20,
        "the linked picture",
    )
    assert drawn > 3


def test_neo4j_browser_connects_styles_and_draws_the_browse_query(
    chromium: Any,
    sample_db: neo4j.Driver,
    neo4j_server: ServerSettings | None,
) -> None:
    if neo4j_server is None:
        pytest.skip("NEO4J_URI points to an external server; its Browser address is unknown")
    from selenium.webdriver.common.by import By

    password = neo4j_server.password_file.read_text().strip()
    query = query_for("explore/show_leaper_task")
    url = browser_url(neo4j_server.http_url, neo4j_server.bolt_uri, query, REVERSE)
    chromium.set_window_size(1400, 900)
    chromium.get(url)
    field = _wait(
        lambda: chromium.find_elements(By.CSS_SELECTOR, "[data-testid=password]"),
        120,
        "the login form of Neo4j Browser",
    )
    assert "Neo4j Browser" in chromium.title or chromium.find_elements(
        By.CSS_SELECTOR, "[data-testid=boltaddress]"
    )
    field[0].send_keys(password)
    # a script click: a banner that slides in on a slow machine must not intercept it
    connect = chromium.find_element(By.CSS_SELECTOR, "[data-testid=connect]")
    chromium.execute_script("arguments[0].click();", connect)
    # The post-connect command applied seekgraph's style (Browser keeps it in local storage).
    _wait(
        lambda: (
            '"node.Task"'
            in (chromium.execute_script("return localStorage.getItem('neo4j.grass')") or "")
        ),
        120,
        "seekgraph's grass",
    )
    # ... and left no `:style` frame (a screen of grass text) in the stream: the stream is
    # empty but for the editor, whatever the connect took.
    _wait(
        lambda: not chromium.find_elements(By.CSS_SELECTOR, "[data-testid=frame]"),
        60,
        "an empty stream after connecting",
    )
    time.sleep(2.0)  # a late frame would show up now
    frames = chromium.find_elements(By.CSS_SELECTOR, "[data-testid=frame]")
    assert not frames, [f.text[:200] for f in frames]
    assert "node.Task {" not in chromium.execute_script("return document.body.innerText")
    editor = chromium.execute_script("return document.body.innerText").replace("\xa0", " ")
    assert f"task_id: '{REVERSE}'" in editor
    run = chromium.find_element(By.CSS_SELECTOR, "[data-testid=editor-Run]")
    chromium.execute_script("arguments[0].click();", run)
    nodes = _wait(
        lambda: chromium.find_elements(By.CSS_SELECTOR, "svg g.node"),
        90,
        "the graph of the browse query",
    )
    with sample_db.session() as session:  # what the focused query returns, at most 40
        expected = len(session.run(editor_text(query, REVERSE)).graph().nodes)
    assert 0 < expected <= MAX_GRAPH_NODES
    _wait(
        lambda: len(chromium.find_elements(By.CSS_SELECTOR, "svg g.node")) == expected,
        30,
        f"{expected} nodes drawn",
    )
    assert len(nodes) > 0
    time.sleep(1.5)  # let the force layout settle for the screenshot
    chromium.save_screenshot(str(_artifacts() / "neo4j-browser.png"))
