"""The Lucene query of a search: which words of the agent's query count and how they are asked.

`fulltext_query` turns a query into the bag of its content words (in the page text and, weighted,
in the title) OR the whole query as a boosted phrase; `lucene_query` escapes Lucene syntax;
`content_words` and `STOPWORDS` say which words count (the visit tool ranks evidence with them
too). Kept apart from `seekgraph.agent.web.tools`, which runs the queries and fuses the rankings,
because this part is pure text: the benchmarks try its variants (`bench/bench_web.py`) without
a tool box, and its tests need no database.
"""

from __future__ import annotations

import re

from seekgraph.common.text import normalize

# Both weights are part of the ranking: change RANKING_VERSION (seekgraph.agent.web.tools)
# with them, so no cached result of the old ranking is served.
PHRASE_BOOST = 2  # weight of the exact-phrase clause against the bag of words
TITLE_WEIGHT = 0.3  # weight of a match in the title alone (it is also in the text); bench_web
_LUCENE_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/&|])')
_LUCENE_WORDS = re.compile(r"\b(AND|OR|NOT|TO)\b")
_WORD = re.compile(r"\w+")
_STOPWORD_TEXT = (
    "a an the of in on at to for from by with and or is are was were be been which who whom "
    "what when where how that this these those it its as his her their all any find list give "
    "name names each every about page information "
    # function words of questions: on nearly every page, they only add noise to a bag of words
    "has have had having does do did doing being am whose why there here than then so such "
    "into onto over under up down out off again also both few more most other some own same "
    "too very can could will would shall should may might must just only not no nor but if "
    "because while until during before after above below between through against per via "
    "i me my we us our you your he him she they them one ones whether listed known called"
)
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def content_words(text: str) -> set[str]:
    return {w for w in normalize(text).split() if w not in STOPWORDS and len(w) > 1}


def lucene_query(text: str) -> str:
    """Escape Lucene syntax so any user text is a plain bag-of-words query."""
    escaped = _LUCENE_SPECIAL.sub(r"\\\1", text)
    return _LUCENE_WORDS.sub(lambda m: m.group(1).lower(), escaped).strip()


def fulltext_query(
    text: str,
    *,
    title: float = TITLE_WEIGHT,
    phrase: float = PHRASE_BOOST,
    stopwords: bool = True,
) -> str:
    """The Lucene query of one search: the query's words in the page text (which begins with
    the title) and, weighted `title`, in the title alone (1: the index's default of every
    field alike; 0: text only); OR the whole query as a phrase boosted by `phrase` (0: none).
    With `stopwords`, words of STOPWORDS are dropped first: question words ("which", "the",
    "has") are on nearly every page and only add noise to the bag.

    On 300 six-word snippets of OTT-QA pages, the page a snippet came from is in the top 5 for
    160 with the bag alone and for 282 with the phrase clause. On questions written from
    OTT-QA rows (bench_web), a title weight of 1 lets passages with short titles that share one
    common word with a question crowd out the page the question is about; 0.3 found the gold
    passage for 45.2% of 1,366 questions against 44.5% at 1 and 43.5% for BM25.
    """
    words = _WORD.findall(text.lower())
    if stopwords:  # unless nothing else is left ("The Who")
        text = " ".join(w for w in text.split() if normalize(w) not in STOPWORDS) or text
    bag = lucene_query(text)
    if not bag:
        return ""
    if title == 1.0:
        query = bag  # every field alike: the index's own default
    elif title <= 0:
        query = f"text:({bag})"
    else:
        query = f"text:({bag}) title:({bag})^{title:g}"
    if phrase <= 0 or len(words) < 2:
        return query
    return f'{query} "{" ".join(words)}"^{phrase:g}'
