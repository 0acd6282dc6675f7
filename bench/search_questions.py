"""Questions for measuring search recall, written from table rows the way people ask them.

Each question is made from one row of a kept table by a template, in two kinds:

- ``named``: the question names the row's entity and asks for one of its attributes ("What is
  the time of Kenenisa Bekele in 10,000 metres (Men)?"): gold = the table's page and the
  entity's own page;
- ``hop``: the question describes the row's entity by another cell and asks who or what it is
  ("Which athlete has 26:17.53 as time in 10,000 metres (Men)?"): gold = the table's page and
  the page of the entity the row is about, which the question does not name (the multi-hop
  case of HybridQA / OTT-QA: the passage must be found through the table).

The words come from the table's title, section, headers and cells, never from the gold
passage, so a ranking cannot find the passage by copying its text. Tables and rows are drawn
with a seeded generator; the same seed gives the same questions.

The BM25 baseline (`bm25s`, Lucene's BM25 with k1 = 1.5, b = 0.75, English stop words, no
stemming) ranks the same pages from their title and text.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import neo4j

from seekgraph.graphdb import cypher

NAMED = (
    "What is the {h} of {a} in {where}?",
    "In {where}, what {h} does {a} have?",
    "{a} is listed in {where}; what is its {h}?",
)
HOP = (
    "Which {k} has {v} as {h} in {where}?",
    "In {where}, who or what is the {k} whose {h} is {v}?",
    "Name the {k} with the {h} {v} in {where}.",
)
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Question:
    """A question with the pages that answer it (a gold page may be missing: '')."""

    text: str
    kind: str  # named | hop
    table_page: str
    passage: str


def _tidy(text: str) -> str:
    text = text.replace(" ,", ",").replace(" .", ".").replace("( ", "(").replace(" )", ")")
    return _SPACES.sub(" ", text).strip()


def _where(title: str, section: str) -> str:
    return f"{title} ({section})" if section and section.lower() != title.lower() else title


def questions_from_table(table: dict[str, Any], rng: random.Random) -> list[Question]:
    """Up to one question of each kind from one random row of `table` (a row of
    ``bench/find_question_rows``)."""
    key = table["key_column"]
    headers = table["headers"]
    if key is None or not table["rows"]:
        return []
    row = rng.choice(table["rows"])
    by_column: dict[int, dict[str, Any]] = {}
    for cell in row:
        by_column.setdefault(cell["column"], cell)
    anchor = by_column.get(key)
    if anchor is None or not anchor.get("page") or not anchor.get("text"):
        return []
    others = [
        c
        for col, c in sorted(by_column.items())
        if col != key
        and col < len(headers)
        and headers[col].strip()
        and c.get("text")
        and 1 <= len(str(c["text"])) <= 60
    ]
    if not others:
        return []
    other = rng.choice(others)
    fill = {
        "a": _tidy(str(anchor["text"])),
        "k": _tidy(headers[key]).lower() or "entry",
        "h": _tidy(headers[other["column"]]).lower(),
        "v": _tidy(str(other["text"])),
        "where": _tidy(_where(table["title"], table["section"])),
    }
    return [
        Question(rng.choice(NAMED).format(**fill), "named", table["table_page"], anchor["page"]),
        Question(rng.choice(HOP).format(**fill), "hop", table["table_page"], anchor["page"]),
    ]


def sample_questions(
    driver: neo4j.Driver, database: str | None, n_tables: int, seed: int = 0
) -> list[Question]:
    """Questions from `n_tables` tables drawn at random (seeded) from the kept tables."""
    rng = random.Random(seed)
    ids = [r["table_id"] for r in cypher.read(driver, "bench/list_kept_tables", database=database)]
    chosen = sorted(rng.sample(ids, min(n_tables, len(ids))))
    out: list[Question] = []
    for batch in cypher.batched(chosen, 200):
        for table in cypher.read(
            driver, "bench/find_question_rows", database=database, table_ids=batch
        ):
            out += questions_from_table(table, rng)
    return out


class BM25Baseline:
    """BM25 (`bm25s`) over every page's title and text: the baseline the search is held to."""

    def __init__(self, pages: Sequence[tuple[str, str]]) -> None:
        import bm25s

        self._ids = [page_id for page_id, _ in pages]
        self._bm25s = bm25s
        self._retriever = bm25s.BM25(k1=1.5, b=0.75)
        corpus = bm25s.tokenize([text for _, text in pages], stopwords="en", show_progress=False)
        self._retriever.index(corpus, show_progress=False)

    def ranked(self, query: str, k: int) -> list[str]:
        tokens = self._bm25s.tokenize([query], stopwords="en", show_progress=False)
        if not tokens.vocab:
            return []
        docs, _ = self._retriever.retrieve(tokens, k=k, show_progress=False, n_threads=1)
        return [self._ids[i] for i in docs[0]]


def read_pages(driver: neo4j.Driver, database: str | None) -> list[tuple[str, str]]:
    """Every page as (page id, title + text), for the BM25 baseline."""
    rows = cypher.read(driver, "bench/list_page_texts", database=database)
    return [(r["page_id"], f"{r['title']}\n{r['text']}") for r in rows]


def recall(ranked: Sequence[Sequence[str]], gold: Sequence[str]) -> float:
    """Share of questions whose gold page is among their ranked pages (gold '' skipped)."""
    pairs = [(r, g) for r, g in zip(ranked, gold, strict=True) if g]
    return sum(g in r for r, g in pairs) / len(pairs) if pairs else float("nan")
