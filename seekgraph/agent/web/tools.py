"""The Search and Visit tools over the offline web, in the Tongyi-DeepResearch wire format.

`search{query: str | list[str], filter_year?: int}` returns, per query, the top-k pages by a
hybrid ranking: reciprocal rank fusion (RRF, k=60) of the Lucene full-text ranking and, when an
`Embedder` is given, the vector ranking (cosine over all-MiniLM-L6-v2 page embeddings), weighted
by `vector_weight`. The full-text query (`seekgraph.agent.web.search_query`) is the bag of the
query's words plus the whole query as a boosted phrase, so a page holding the exact words in order
ranks first. Both choices are measured over the OTT-QA corpus in `docs/benchmarks.md` ("Offline
web").
`filter_year` keeps pages whose `Page.year` equals the year (pages without a year drop out).

The response texts (Tongyi's templates) are written and read back by
`seekgraph.agent.web.responses`, which also separates what the web returned from the echoes of
the agent's own query, URL and goal.

`visit{url: str | list[str], goal: str}` returns the evidence on each page relevant to the goal:
extractive by default (the page's lines/sentences ranked by overlap with the goal, filled up to a
character budget and printed in page order), or an LLM summary `{rational, evidence, summary}`
when a summary backend is configured.

`seekgraph.agent.web.wrappers` holds the tool boxes that wrap these tools: observations cut to a
budget (`CutTools`) and the tool cache (`CachedTools`).

Expected failures (unknown URL, no results, malformed arguments) come back as observations with
`error` set; a broken database or backend raises.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import unquote

import neo4j

from seekgraph.agent.web.index import check_embedder, page_embedders
from seekgraph.agent.web.responses import (
    MAX_ITEMS,
    join_parts,
    search_text,
    segments,
    visit_text,
)
from seekgraph.agent.web.search_query import content_words, fulltext_query
from seekgraph.common.embeddings import EMBEDDER_NAME
from seekgraph.common.llm.base import LLMBackend
from seekgraph.common.text import titled
from seekgraph.common.wire import TOOL_NAMES
from seekgraph.graphdb import cypher

RRF_K = 60
# r1: bag of words, RRF weights 1:1; r2: + phrase clause, vector weight; r3: ties at the
# index's cut-off broken by page id; r4: exact vector ranking on small corpora; r5: question
# words dropped, title weighted 0.3 (and in the text)
RANKING_VERSION = "r5"


@dataclass(frozen=True)
class Observation:
    """What a tool returns: the text the agent reads and the pages it saw (for `SAW` edges)."""

    text: str
    pages: tuple[str, ...] = ()
    error: str | None = None  # short code: malformed_arguments, unknown_tool, not_found, no_results


class ToolBox(Protocol):
    """Anything that executes a named tool call."""

    def call(self, name: str, arguments: Any) -> Observation: ...


class QueryEmbedder(Protocol):
    # names its vectors (`embeddings.embedder_name`): the pages' must have the same name
    @property
    def name(self) -> str: ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


def _body(page: dict[str, Any]) -> str:
    """A page's text without the title line it begins with (a search result shows the title)."""
    title, text = page["title"], page["text"]
    if title and text.startswith(title + "\n"):
        return text[len(title) + 1 :]
    return text


def best_snippet(text: str, query: str, chars: int = 240) -> str:
    words = content_words(query)
    segs = segments(text) or [text]
    best = max(segs, key=lambda s: (len(words & content_words(s)), -segs.index(s)))
    return best if len(best) <= chars else best[: chars - 1].rstrip() + "…"


def extract_evidence(text: str, goal: str, budget: int) -> tuple[list[str], str]:
    """Segments relevant to `goal` first, then the rest, up to `budget` chars, in page order."""
    segs = segments(text)
    words = content_words(goal)
    scored = sorted(range(len(segs)), key=lambda i: (-len(words & content_words(segs[i])), i))
    chosen: list[int] = []
    used = 0
    for i in scored:
        if used + len(segs[i]) > budget and chosen:
            continue
        chosen.append(i)
        used += len(segs[i]) + 1
    top = segs[scored[0]] if segs else ""
    return [segs[i] for i in sorted(chosen)], top


def page_key(url: str) -> str:
    """A visit URL → the page key: `https://en.wikipedia.org/wiki/X` and `/wiki/X` are one page."""
    url = unquote(url.strip())
    for prefix in ("https://en.wikipedia.org", "http://en.wikipedia.org", "en.wikipedia.org"):
        if url.startswith(prefix + "/wiki/"):
            return url[len(prefix) :].split("#")[0].replace(" ", "_")
    return url


def _as_list(value: Any) -> list[str] | None:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return list(value)
    return None


SUMMARY_PROMPT = """Please process the following webpage content and user goal to extract \
relevant information.

## Webpage Content
{content}

## User Goal
{goal}

Reply with one JSON object with the fields "rational" (which parts of the page matter for the \
goal), "evidence" (the most relevant text, quoted) and "summary" (a concise answer to the goal)."""


@dataclass
class WebTools:
    """Search and Visit over the `Page` nodes of one database.

    `embedder` switches on hybrid ranking (without it, full-text only); `summary_backend`
    switches visit from extractive evidence to an LLM summary.
    """

    driver: neo4j.Driver
    database: str | None = None
    top_k: int = 5
    embedder: QueryEmbedder | None = None
    vector_weight: float = 0.1  # RRF weight of the vector ranking (full-text has 1); see ranked()
    summary_backend: LLMBackend | None = None
    evidence_chars: int = 3000
    max_items: int = MAX_ITEMS  # queries / urls per call (what `returned_units` reads back)
    # With at most this many embedded pages the vector ranking is exact (every page scored);
    # the approximate index's answers depend on how its segments happened to merge, so the
    # same graph could rank differently in two builds.
    exact_vector_pages: int = 20_000
    _embed_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _embedded: int | None = field(default=None, repr=False)
    _threads: ThreadPoolExecutor | None = field(default=None, repr=False)

    def _pool(self) -> ThreadPoolExecutor:
        """Threads for the full-text half of a hybrid search (made on first use)."""
        with self._embed_lock:
            if self._threads is None:
                self._threads = ThreadPoolExecutor(4, thread_name_prefix="web-search")
            return self._threads

    def _vector_query(self) -> str | None:
        """The exact vector query for a small corpus, the approximate index for a large one,
        None while no page has an embedding. Fails once there are embeddings if they are not
        the query embedder's (`check_embedder`): vectors of two backends do not compare."""
        if not self._embedded:  # counted once there are embeddings
            row = cypher.read(self.driver, "agent/count_page_embeddings", database=self.database)
            self._embedded = int(row[0]["embedded"])
            if self._embedded and self.embedder is not None:
                check_embedder(page_embedders(self.driver, self.database), self.embedder.name)
        if not self._embedded:
            return None
        if self._embedded <= self.exact_vector_pages:
            return "agent/search_pages_vector_exact"
        return "agent/search_pages_vector"

    @property
    def cache_salt(self) -> str:
        """Part of every cache key: results depend on the ranking and the visit mode.

        Change RANKING_VERSION when the ranking changes, so no cached result of the old one
        is served.
        """
        summary = self.summary_backend.name if self.summary_backend is not None else "extractive"
        ranking = f"{RANKING_VERSION}/fulltext"
        if self.embedder is not None and self.vector_weight > 0:
            ranking += f"+vector{self.vector_weight:g}"
            if self.embedder.name != EMBEDDER_NAME:  # torch's keeps the keys made before
                ranking += f"@{self.embedder.name}"
        return f"{ranking}/k{self.top_k}/{summary}/{self.evidence_chars}"

    def call(self, name: str, arguments: Any) -> Observation:
        """Dispatch a tool call; malformed calls become observations, not exceptions."""
        if not isinstance(arguments, dict):
            return Observation(
                f"[{name}] Invalid arguments: expected a JSON object.", error="malformed_arguments"
            )
        if name == "search":
            queries = _as_list(arguments.get("query"))
            year = arguments.get("filter_year")
            if isinstance(year, str) and year.strip().isdigit():
                year = int(year)
            if queries is None or not all(q.strip() for q in queries):
                return Observation(
                    "[search] Invalid request format: 'query' must be a "
                    "non-empty string or list of strings.",
                    error="malformed_arguments",
                )
            if year is not None and (isinstance(year, bool) or not isinstance(year, int)):
                return Observation(
                    "[search] Invalid request format: 'filter_year' must be an integer year.",
                    error="malformed_arguments",
                )
            return self.search(queries[: self.max_items], filter_year=year)
        if name == "visit":
            urls = _as_list(arguments.get("url"))
            goal = arguments.get("goal")
            if urls is None or not isinstance(goal, str) or not goal.strip():
                return Observation(
                    "[visit] Invalid request format: 'url' must be a string or "
                    "list of strings and 'goal' a non-empty string.",
                    error="malformed_arguments",
                )
            return self.visit(urls[: self.max_items], goal)
        return Observation(
            f"Error: tool {name!r} does not exist; the tools are {', '.join(TOOL_NAMES)}.",
            error="unknown_tool",
        )

    # -- search ---------------------------------------------------------------------------
    def ranked(self, query: str, filter_year: int | None = None) -> list[dict[str, Any]]:
        """Top-k pages for one query by weighted RRF over full-text and (if configured) vector ranks.

        With `vector_weight` below about 0.94 a page only the vector ranking finds enters the
        top 5 only when full-text finds fewer pages: the vector ranking reorders what both find
        and fills in when the words of the query are on too few pages. Over the OTT-QA corpus
        (bench_web) every weight above 0 found the source page of a query less often than
        full-text alone, 0.1 least so; hence the default.
        """
        fetch = self.top_k * (10 if filter_year is not None else 3)

        def read(name: str, ties: bool = True, **params: Any) -> list[dict[str, Any]]:
            """The `fetch` best pages of one ranking, the same in every build of the graph.

            An index cuts its hits at its limit among equal scores by internal document
            order, which differs between builds (and after a crash recovery): ask for twice
            as many (`ties`: scores are often equal; else one more), keep the groups of equal
            score the cut left whole (ordered by page id), and ask for more while they are
            fewer than `fetch`."""
            limit = 2 * fetch if ties else fetch + 1
            while True:
                rows = cypher.read(
                    self.driver,
                    name,
                    database=self.database,
                    fetch=limit,
                    k=limit,
                    year=filter_year,
                    **params,
                )
                if not rows or rows[0]["index_hits"] < limit:
                    return rows[:fetch]
                whole = [r for r in rows if r["score"] > r["lowest"]]
                if len(whole) >= fetch or limit >= 64 * fetch:
                    return whole[:fetch]
                limit *= 2

        lists: list[tuple[float, list[dict[str, Any]]]] = []
        text_query = fulltext_query(query)
        vector_query = (
            self._vector_query() if self.embedder is not None and self.vector_weight > 0 else None
        )
        # hybrid: the full-text query runs on the server while the query is embedded here
        text_rows: Future[list[dict[str, Any]]] | None = None
        if text_query and vector_query is not None:
            text_rows = self._pool().submit(read, "agent/search_pages_fulltext", query=text_query)
        elif text_query:
            lists.append((1.0, read("agent/search_pages_fulltext", query=text_query)))
        if self.embedder is not None and vector_query is not None:
            with self._embed_lock:  # the model is shared by the rollout threads
                vector = self.embedder.embed([query])[0]
            # cosine scores are rarely equal: one page past the cut shows whether a tie was cut
            # (a vector query's time grows with the pages it asks for)
            vector_rows = read(vector_query, ties=False, vector=vector)
            if text_rows is not None:
                lists.append((1.0, text_rows.result()))
            lists.append((self.vector_weight, vector_rows))
        fused: dict[str, float] = {}
        pages: dict[str, dict[str, Any]] = {}
        for weight, ranking in lists:
            for rank, row in enumerate(ranking):
                score = weight / (RRF_K + rank + 1)
                fused[row["page_id"]] = fused.get(row["page_id"], 0.0) + score
                pages[row["page_id"]] = row
        order = sorted(fused, key=lambda pid: (-fused[pid], pid))[: self.top_k]
        return [pages[pid] for pid in order]

    def search(self, queries: list[str], filter_year: int | None = None) -> Observation:
        parts: list[str] = []
        seen: list[str] = []
        for query in queries:
            hits = self.ranked(query, filter_year)
            parts.append(
                search_text(
                    query,
                    [(h["title"], h["url"], best_snippet(_body(h), query)) for h in hits],
                )
            )
            seen += [h["page_id"] for h in hits if h["page_id"] not in seen]
        return Observation(join_parts(parts), tuple(seen), error=None if seen else "no_results")

    # -- visit ----------------------------------------------------------------------------
    def visit(self, urls: list[str], goal: str) -> Observation:
        parts: list[str] = []
        seen: list[str] = []
        for url in urls:
            rows = cypher.read(
                self.driver, "agent/get_page", database=self.database, url=page_key(url)
            )
            if not rows:
                parts.append(visit_text(url, goal, None))
                continue
            page = rows[0]
            seen.append(page["page_id"])
            evidence, summary = self._read_page(page, goal)
            parts.append(visit_text(page["url"], goal, evidence, summary))
        return Observation(join_parts(parts), tuple(seen), error=None if seen else "not_found")

    def _read_page(self, page: dict[str, Any], goal: str) -> tuple[str, str]:
        content = titled(page["title"], page["text"])
        chosen, top = extract_evidence(content, goal, self.evidence_chars)
        if self.summary_backend is None:
            return "\n".join(chosen), top
        prompt = SUMMARY_PROMPT.format(content=content[: self.evidence_chars * 3], goal=goal)
        generation = self.summary_backend.generate(
            [{"role": "user", "content": prompt}], max_tokens=512
        )
        parsed = _parse_summary(generation.text)
        if parsed is None:  # the model did not answer in JSON: keep the extractive evidence
            return "\n".join(chosen), top
        return str(parsed.get("evidence", "")), str(parsed.get("summary", ""))


def _parse_summary(text: str) -> dict[str, Any] | None:
    start, end = text.find("{"), text.rfind("}")
    if start == -1 or end <= start:
        return None
    try:
        value = json.loads(text[start : end + 1])
    except json.JSONDecodeError:
        return None
    if not isinstance(value, dict) or not ({"evidence", "summary"} & set(value)):
        return None
    return value
