"""Shipping the exploration queries to Neo4j Browser (5.24, served by Neo4j 5.26 at /browser/).

What Browser supports, and what seekgraph uses (docs/browser.md has the details):

- URL parameters ``?cmd=edit&arg=<text>`` put text into the editor after the page loads;
  `browser_url` builds such a link with ``:param <name> => '<id>';`` on the first line and the
  query below, so one click on "run" shows the picture (`seekgraph browse ID`).
- ``browser.post_connect_cmd`` (server setting, written by graphdb/server.py) runs ``:style``
  with seekgraph's grass after every connection, so captions and colours explain themselves.
- ``:play <url>`` shows a guide fetched from a host in ``browser.remote_content_hostname_allowlist``
  (default ``guides.neo4j.com, localhost``); `seekgraph browse --guide` serves `render_guide`'s
  page on localhost with CORS headers for as long as the command runs.
- Favorites live in the browser's local storage; the `.cypher` files in `cypher/explore/` start
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

from graphdb import cypher

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


# Named as string literals so tests/test_cypher_files.py sees each file used.
EXPLORE_NAMES = (
    "explore/list_tasks",
    "explore/show_leaper_task",
    "explore/show_biclique",
    "explore/show_kp_task",
    "explore/show_rollout_steps",
    "explore/show_trajectory",
    "explore/count_stage_results",
)


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
    """What the editor shows: a `:param` line setting the id, then the query itself."""
    if query.param and subject_id is not None:
        return f":param {query.param} => {cypher_string(subject_id)};\n{query.text}"
    return query.text


def browser_url(http_url: str, bolt_uri: str, query: ExploreQuery,
                subject_id: str | None = None) -> str:
    """A Neo4j Browser link that connects to `bolt_uri` and opens with the query in the editor."""
    args = urllib.parse.urlencode({"dbms": bolt_uri, "cmd": "edit",
                                   "arg": editor_text(query, subject_id)},
                                  quote_via=urllib.parse.quote, safe=":/@")
    return f"{http_url.rstrip('/')}/browser/?{args}"


def guide_play_url(http_url: str, bolt_uri: str, guide_url: str) -> str:
    args = urllib.parse.urlencode({"dbms": bolt_uri, "cmd": "play", "arg": guide_url},
                                  quote_via=urllib.parse.quote, safe=":/@")
    return f"{http_url.rstrip('/')}/browser/?{args}"


def render_guide(examples: dict[str, str] | None = None) -> str:
    """A Browser guide (slides of runnable queries); `examples` maps kind -> an id to try."""
    examples = examples or {}
    slides = []
    intro = (
        "<h3>seekgraph: exploring the training-data graph</h3>"
        "<p>Each slide holds one query from <code>cypher/explore/</code>. Click a grey block to "
        "copy it into the editor, then run it. Queries that need an id start with a "
        "<code>:param</code> line; replace the example id with yours "
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
        body = html.escape(editor_text(q, example))
        slides.append(f"<h3>{html.escape(q.title)}</h3>"
                      f"<p><code>{html.escape(q.name)}.cypher</code></p>"
                      f'<pre class="pre-scrollable code runnable">{body}</pre>')
    inner = "".join(f'<slide class="row-fluid"><div class="col-sm-12">{s}</div></slide>'
                    for s in slides)
    return ('<article class="guide"><carousel class="deck container-fluid">'
            f"{inner}</carousel></article>\n")


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
