"""Tool responses: the text the tools write (Tongyi's wire format) and what the web returned in it.

A `search` or `visit` response mixes two kinds of text. Tongyi's templates echo what the agent
sent ("A Google search for 'QUERY' found …", "The useful information in URL for user goal GOAL
as follows: …", "No results found for 'QUERY'"); the rest is what the web returned: result
titles, URLs and snippets, page evidence and summary. The model reads the whole response,
unchanged; every measurement of what an agent *found* (O, ISR, ISE, `revealed_*`, the GRPO
rewards, the teacher's answer filter, audits) reads only the returned part, split into
**units** (`returned_units`): a result title, a result URL, a snippet, an evidence line (a table
row, or one sentence of a line of prose), a sentence of the summary. A policy that types gold
names into its queries or goals is thereby credited with nothing.

The templates are written here and rendered by `seekgraph.agent.web.tools`, so the parser
always reads what the tools wrote. Parsing rebuilds each echo from the turn's own arguments
(the exact query, the exact goal, the exact URL), so a goal made of template words cannot
pass its own text off as the web's; text that matches no template (a malformed call, an error,
a response cut inside a header) yields no unit.

Example: `search{query: "Kazuo Ishiguro"}` answered with one result gives the units
``["Kazuo Ishiguro (novelist)", "https://en.wikipedia.org/wiki/Kazuo_Ishiguro",
"Kazuo Ishiguro won the Nobel Prize in 2017."]``; the query itself is no unit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from seekgraph.common.wire import Turn

PART_SEPARATOR = "\n=======\n"  # between the parts of a response (one per query / URL)
MAX_ITEMS = 10  # queries / URLs per call; the tools answer only the first ones

# -- the templates (Tongyi's wording) ---------------------------------------------------------
NO_RESULTS = "No results found for '{query}'. Try with a more general query."
SEARCH_HEADER_START = "A Google search for '{query}' found "
SEARCH_HEADER = SEARCH_HEADER_START + "{n} results:\n\n## Web Results\n"
SEARCH_RESULT = "{i}. [{title}]({url})\n{snippet}"
RESULT_SEPARATOR = "\n\n"
VISIT_HEADER_START = "The useful information in "
VISIT_HEADER_END = " for user goal {goal} as follows: \n\nEvidence in page: \n"
VISIT_BODY = "{evidence}\n\nSummary: \n{summary}\n\n"
SUMMARY_MARK = "\n\nSummary: \n"
NOT_FOUND_BODY = (
    "The provided webpage content could not be accessed. Please check the URL or file "
    "format.\n\nSummary: \nThe webpage content could not be processed, and therefore, no "
    "information is available.\n\n"
)
# a sentence ends at . ! ? before a capital, but not after an initial ("J. M. Coetzee")
_SENTENCE = re.compile(r"(?<![A-Z]\.)(?<=[.!?])\s+(?=[A-Z0-9\"'(])")
_SEARCH_HEADS = (NO_RESULTS.split("{", 1)[0], SEARCH_HEADER_START.split("{", 1)[0])
_RESULT_COUNT = re.compile(r"(\d+) results:\n\n## Web Results\n")
_CUT_MARK = re.compile(r"\n\[\.\.\. \d+ characters cut\]\s*$")


def segments(text: str) -> list[str]:
    """A text's lines, each split into sentences; a table row (`a | b | c`) stays one unit.

    These are the units `visit` extracts from a page and the units of returned text.

    >>> segments("Booker Prize\\nIt began in 1969. J. M. Coetzee won twice.\\n1999 | Coetzee")
    ['Booker Prize', 'It began in 1969.', 'J. M. Coetzee won twice.', '1999 | Coetzee']
    """
    out: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if line and " | " in line:
            out.append(line)
        elif line:
            out.extend(s.strip() for s in _SENTENCE.split(line) if s.strip())
    return out


# -- rendering (the tools call these) ---------------------------------------------------------
def search_text(query: str, results: Sequence[tuple[str, str, str]]) -> str:
    """One query's part of a search response; `results` are (title, url, snippet)."""
    if not results:
        return NO_RESULTS.format(query=query)
    lines = [
        SEARCH_RESULT.format(i=i, title=title, url=url, snippet=snippet)
        for i, (title, url, snippet) in enumerate(results, start=1)
    ]
    return SEARCH_HEADER.format(query=query, n=len(results)) + RESULT_SEPARATOR.join(lines)


def visit_text(url: str, goal: str, evidence: str | None, summary: str = "") -> str:
    """One URL's part of a visit response; `evidence` None: the page could not be read."""
    header = VISIT_HEADER_START + url + VISIT_HEADER_END.format(goal=goal)
    if evidence is None:
        return header + NOT_FOUND_BODY
    return header + VISIT_BODY.format(evidence=evidence, summary=summary)


def join_parts(parts: Sequence[str]) -> str:
    return PART_SEPARATOR.join(parts)


# -- reading back -----------------------------------------------------------------------------
def _items(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return list(value)[:MAX_ITEMS]
    return []


def _search_units(queries: list[str], text: str) -> list[str]:
    units: list[str] = []
    pos = 0
    for k, query in enumerate(queries):
        if k:
            if not text.startswith(PART_SEPARATOR, pos):
                return units
            pos += len(PART_SEPARATOR)
        empty = NO_RESULTS.format(query=query)
        if text.startswith(empty, pos):
            pos += len(empty)
            continue
        start = SEARCH_HEADER_START.format(query=query)
        match = _RESULT_COUNT.match(text, pos + len(start)) if text.startswith(start, pos) else None
        if match is None:  # cut inside the header, or not a response to this query
            return units
        pos = match.end()
        n = int(match.group(1))
        end = _next_part(text, pos, _SEARCH_HEADS)
        body = text[pos:end]
        units += _results(body, n)
        pos = end
    return units


def _next_part(text: str, pos: int, heads: Sequence[str]) -> int:
    """Where the part from `pos` ends: at the next separator followed by the fixed words a
    part begins with (before any echo), else at the end of the text. A header cut short
    after these words is thus never read as the web's text."""
    found = [i for i in (text.find(PART_SEPARATOR + h, pos) for h in heads) if i >= 0]
    if found:
        return min(found)
    # a response cut inside the separator or those words
    return min(len(text) - _cut_lead(text[pos:], PART_SEPARATOR + h) for h in heads)


def _cut_lead(text: str, lead: str) -> int:
    """The length of the longest beginning of `lead` that `text` ends with (0: none)."""
    for size in range(min(len(lead), len(text)), 0, -1):
        if text.endswith(lead[:size]):
            return size
    return 0


def _results(body: str, n: int) -> list[str]:
    """Title, URL and snippet of each numbered result of one query's part."""
    units: list[str] = []
    pos = 0
    for i in range(1, n + 1):
        lead = f"{i}. ["
        if i > 1:
            lead = RESULT_SEPARATOR + lead
        if not body.startswith(lead, pos):
            break
        pos += len(lead)
        close = body.find("](", pos)
        if close < 0:
            units.append(body[pos:].removesuffix("]"))  # cut inside the title
            break
        units.append(body[pos:close])
        pos = close + 2
        url_end = body.find(")\n", pos)
        if url_end < 0:
            units.append(body[pos:].removesuffix(")"))
            break
        units.append(body[pos:url_end])
        pos = url_end + 2
        following = body.find(RESULT_SEPARATOR, pos)  # a snippet is one line
        stop = following if following >= 0 else len(body)
        units += segments(body[pos:stop])
        pos = stop
    return [u.strip() for u in units if u.strip()]


def _visit_units(urls: list[str], goal: str, text: str) -> list[str]:
    units: list[str] = []
    end_mark = VISIT_HEADER_END.format(goal=goal)
    pos = 0
    for k, url in enumerate(urls):
        if k:
            if not text.startswith(PART_SEPARATOR, pos):
                return units
            pos += len(PART_SEPARATOR)
        if not text.startswith(VISIT_HEADER_START, pos):
            return units
        echoed = VISIT_HEADER_START + url + end_mark
        if text.startswith(echoed, pos):  # the URL as the agent wrote it
            pos += len(echoed)
        else:  # the page's own URL, which has no line break and precedes the goal's echo
            at = text.find(end_mark, pos + len(VISIT_HEADER_START))
            if at < 0 or "\n" in text[pos:at]:
                return units  # cut inside the header
            pos = at + len(end_mark)
        if text.startswith(NOT_FOUND_BODY, pos) or NOT_FOUND_BODY.startswith(text[pos:]):
            pos += len(NOT_FOUND_BODY)
            continue
        end = _next_part(text, pos, (VISIT_HEADER_START,))
        body = text[pos:end]
        evidence, mark, summary = body.rpartition(SUMMARY_MARK)
        if not mark:  # cut before the summary
            evidence, summary = summary[: len(summary) - _cut_lead(summary, SUMMARY_MARK)], ""
        units += segments(evidence) + segments(summary)
        pos = end
    return units


def returned_units(tool: str, arguments: Any, observation: str) -> list[str]:
    """What the web returned in one tool response, as units, every echo of the call removed.

    `tool` and `arguments` are the call as the agent made it (the parsed ``<tool_call>``);
    `observation` the text inside ``<tool_response>`` (whole, or cut by `cut_text` or by
    a character budget). A call the tools refused returns no unit.
    """
    if not isinstance(arguments, dict) or not observation:
        return []
    text = _CUT_MARK.sub("", observation)
    if tool == "search":
        queries = _items(arguments.get("query"))
        if not queries or not all(q.strip() for q in queries):
            return []
        return _search_units(queries, text)
    if tool == "visit":
        urls, goal = _items(arguments.get("url")), arguments.get("goal")
        if not urls or not isinstance(goal, str) or not goal.strip():
            return []
        return _visit_units(urls, goal, text)
    return []


def turn_units(turn: Turn) -> list[str]:
    """The returned units of one turn of a trajectory (none for an answer or a bad call)."""
    if turn.kind != "tool_call" or turn.response is None:
        return []
    return returned_units(turn.tool, turn.arguments, turn.observation)
