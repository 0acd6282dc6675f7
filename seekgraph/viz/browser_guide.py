"""Shipping the exploration queries to Neo4j Browser (5.24, served by Neo4j 5.26 at /browser/).

What Browser supports, and what seekgraph uses (docs/browser.md has the details):

- Graph queries are focused (at most 40 nodes: the first answers, the necessary actions, the
  first steps); each has a table view that lists every row it leaves out (`TABLE_VIEW`).
- URL parameters ``?cmd=edit&arg=<text>`` put text into the editor after the page loads;
  `browser_url` builds such a link with the id written into the query as a quoted literal,
  so one click on "run" draws the picture (`seekgraph browse ID`).
- ``browser.post_connect_cmd`` (server setting, written by seekgraph/graphdb/server_files.py) runs ``:style``
  with seekgraph's grass after every connection, so captions and colours explain themselves.
- ``:play <url>`` shows a guide fetched from a host in ``browser.remote_content_hostname_allowlist``
  (default ``guides.neo4j.com, localhost``); `seekgraph browse --guide` serves `render_guide`'s
  page on localhost with CORS headers for as long as the command runs.
- Favorites live in the browser's local storage; the `.cypher` files in `seekgraph/cypher/explore/` start
  with a ``// title`` line, which Browser uses as the favorite's name when they are dropped on the
  Favorites drawer (drag and drop import).
"""

from __future__ import annotations

import html
import http.server
import re
import threading
import urllib.parse
from dataclasses import dataclass

from seekgraph.graphdb import cypher

GUIDE_NAME = "seekgraph.html"


@dataclass(frozen=True)
class ExploreQuery:
    name: str  # cypher name, e.g. explore/show_leaper_task
    title: str  # first `//` comment line of the file
    param: str | None  # the id parameter the query needs, if any
    kind: str  # what the id names: task, rollout or nothing

    @property
    def text(self) -> str:
        return cypher.query(self.name)

    @property
    def draws_graph(self) -> bool:
        """A focused graph (paths, at most `MAX_GRAPH_NODES` nodes) rather than a table."""
        return self.name in TABLE_VIEW


# Named as string literals so tests/test_cypher_files.py sees each file used.
EXPLORE_NAMES = (
    "explore/list_tasks",
    "explore/show_task_answers",
    "explore/show_leaper_task",
    "explore/show_biclique",
    "explore/show_kp_task",
    "explore/show_rollout_steps",
    "explore/show_trajectory",
    "explore/list_rollout_steps",
    "explore/count_stage_results",
)
# The table view beside each focused graph query: every row the graph leaves out.
TABLE_VIEW = {
    "explore/show_leaper_task": "explore/show_task_answers",
    "explore/show_kp_task": "explore/show_task_answers",
    "explore/show_biclique": "explore/show_task_answers",
    "explore/show_rollout_steps": "explore/list_rollout_steps",
    "explore/show_trajectory": "explore/list_rollout_steps",
}
MAX_GRAPH_NODES = 40  # what a focused graph query may draw (tests/test_viz_pipeline.py)


def explore_queries() -> list[ExploreQuery]:
    """The exploration queries with their titles and id parameter."""
    out = []
    for name in EXPLORE_NAMES:
        text = cypher.query(name)
        first = text.splitlines()[0]
        title = first.lstrip("/ ").strip() if first.startswith("//") else name
        params = re.findall(r"\$([a-z_]+)", text)
        param = params[0] if params else None
        kind = {"task_id": "task", "rollout_id": "rollout"}.get(param or "", "")
        out.append(ExploreQuery(name, title, param, kind))
    return out


def query_for(name: str) -> ExploreQuery:
    for q in explore_queries():
        if q.name == name or q.name == f"explore/{name}":
            return q
    raise KeyError(name)


def cypher_string(value: str) -> str:
    """`value` as a single-quoted Cypher string literal."""
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def editor_text(query: ExploreQuery, subject_id: str | None) -> str:
    """What the editor shows: the query with the id written in as a quoted literal.

    A `:param` line before the query would make Browser run a two-statement script, which
    shows a list of statuses instead of the graph; with the literal, one click draws it.
    """
    if query.param and subject_id is not None:
        literal = cypher_string(subject_id)
        return re.sub(rf"\${query.param}\b", lambda _: literal, query.text)
    return query.text


def _dbms(bolt_uri: str, username: str | None) -> str:
    """`bolt://user@host:port`: Browser pre-fills the user name from the URL (never a password)."""
    if not username or "@" in bolt_uri or "://" not in bolt_uri:
        return bolt_uri
    scheme, rest = bolt_uri.split("://", 1)
    return f"{scheme}://{urllib.parse.quote(username, safe='')}@{rest}"


def browser_url(
    http_url: str,
    bolt_uri: str,
    query: ExploreQuery,
    subject_id: str | None = None,
    username: str | None = "neo4j",
) -> str:
    """A Neo4j Browser link that connects to `bolt_uri` and opens with the query in the editor."""
    args = urllib.parse.urlencode(
        {"dbms": _dbms(bolt_uri, username), "cmd": "edit", "arg": editor_text(query, subject_id)},
        quote_via=urllib.parse.quote,
        safe=":/@",
    )
    return f"{http_url.rstrip('/')}/browser/?{args}"


def guide_play_url(
    http_url: str, bolt_uri: str, guide_url: str, username: str | None = "neo4j"
) -> str:
    args = urllib.parse.urlencode(
        {"dbms": _dbms(bolt_uri, username), "cmd": "play", "arg": guide_url},
        quote_via=urllib.parse.quote,
        safe=":/@",
    )
    return f"{http_url.rstrip('/')}/browser/?{args}"


def render_guide(examples: dict[str, str] | None = None) -> str:
    """A Browser guide (slides of runnable queries); `examples` maps kind -> an id to try."""
    examples = examples or {}
    slides = []
    intro = (
        "<h3>seekgraph: exploring the training-data graph</h3>"
        "<p>Each slide holds one query from <code>seekgraph/cypher/explore/</code>. Click a grey block to "
        "copy it into the editor, then run it. Queries that need an id start with a "
        "<code>:param</code> line: run it first, with your id "
        "(<code>seekgraph browse --list</code> prints ids; <code>seekgraph browse ID</code> "
        "prints a link that opens the right query directly).</p>"
        "<p>Colours: orange star = task, green triangle = reasoning tree, sky-blue box = table, "
        "blue = entity, grey = value, pink diamond = relation/triple, yellow = variable "
        "(KP), dark-blue box = action, green = information; gold edges = TARGET (the set R), "
        "red = PIVOT.</p>"
    )
    slides.append(intro)
    for q in explore_queries():
        example = examples.get(q.kind, "PUT-AN-ID-HERE") if q.param else None
        blocks = [q.text]
        if q.param and example is not None:
            blocks.insert(0, f":param {q.param} => {cypher_string(example)}")
        body = "".join(
            f'<pre class="pre-scrollable code runnable">{html.escape(b)}</pre>' for b in blocks
        )
        slides.append(
            f"<h3>{html.escape(q.title)}</h3><p><code>{html.escape(q.name)}.cypher</code></p>{body}"
        )
    inner = "".join(
        f'<slide class="row-fluid"><div class="col-sm-12">{s}</div></slide>' for s in slides
    )
    return (
        '<article class="guide"><carousel class="deck container-fluid">'
        f"{inner}</carousel></article>\n"
    )


class _GuideHandler(http.server.BaseHTTPRequestHandler):
    page = b""

    def do_GET(self) -> None:
        if self.path.split("?")[0].lstrip("/") != GUIDE_NAME:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Content-Length", str(len(self.page)))
        self.end_headers()
        self.wfile.write(self.page)

    def log_message(self, format: str, *args: object) -> None:  # quiet
        return


def serve_guide(page: str, port: int = 0) -> tuple[http.server.ThreadingHTTPServer, str]:
    """Serve the guide on localhost (allowlisted by Browser by default) in a daemon thread."""
    handler = type("GuideHandler", (_GuideHandler,), {"page": page.encode("utf-8")})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://localhost:{httpd.server_address[1]}/{GUIDE_NAME}"
