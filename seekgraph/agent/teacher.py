"""The default TEACHER: a scripted researcher that knows only the question and its tools' answers.

It gets the question text and the `ToolBox` the ReAct agent uses, and nothing from the graph.
It works as a careful person would with the same two tools:

1. plan from the question (`seekgraph.agent.questions`): the tables it names, what it asks for,
   its clues, a KP question's clauses and the quoted constants;
2. search for the tables (title and section as typed into a search box) and for the pages a
   link clause names, and choose among the results by their titles and snippets alone;
3. visit the chosen page and read the table rows the visit showed (`seekgraph.agent.reading`
   parses the response text exactly as the agent sees it, cut or not); a page that shows no
   table was a wrong hit: it is recorded as the detour it was (``wrong_hit``) and the next
   result is tried, then a second search with the title alone; when the response was cut
   before the rows a KP clause or a clue needs, it searches ``title value``, whose snippet is
   the page line that fits the query best (often, not always, the row);
4. solve (`seekgraph.agent.solving`): list the rows (Basic), intersect the tables' entities
   (Union), find the one entity the clues describe and the others sharing its pivot
   (Reverse-Union), or propagate a KP task's constants through its clauses until the unknowns
   settle (a link clause is checked on the linking page's text);
5. answer in the scorer's record format (`seekgraph.common.answers`) with the names and values
   it parsed, spelled as the pages spell them.

So its precision, recall and ISR measure the offline web plus a real strategy and vary from task
to task: a cut response hides rows, a relation the question words differently from the table's
header picks the wrong column, "Korean" on the page is not "Korean language" in the gold answer.

Detours: the natural ones are recorded as they happen (``wrong_hit``: a visited page without the
table; ``failed_search``: a search none of whose results was used). With `detour_rate > 0`,
after each action a detour is injected with that probability (`DETOUR_KINDS`, drawn from a RNG
seeded by the rollout id, built only from what earlier responses showed: a rephrased earlier
query, a result not chosen, an earlier visit repeated), labelled with its kind so pruning can be
measured against known truth. Thoughts are short first-person sentences.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from seekgraph.agent.questions import QuestionPlan, TableName, parse_question, visit_goal
from seekgraph.agent.reading import (
    Hit,
    Table,
    bare,
    cell_in,
    parse_search,
    parse_table,
    parse_visit,
    value_key,
)
from seekgraph.agent.solving import KPSolver, Solver
from seekgraph.agent.trajectory import Rollout, Termination
from seekgraph.agent.web.tools import Observation, ToolBox
from seekgraph.common.answers import AnswerRecord, format_records
from seekgraph.common.text import normalize
from seekgraph.common.wire import assistant_text, count_tokens
from seekgraph.synth.phrasing.tables import column_label
from seekgraph.synth.phrasing.words import join

DETOUR_KINDS = ("redundant_search", "irrelevant_visit", "reverification")  # injected
NATURAL_DETOURS = ("wrong_hit", "failed_search")  # recorded as they happen


@dataclass(frozen=True)
class TeacherConfig:
    """Settings of the teachers (the question-only teacher and the gold walker)."""

    detour_rate: float = 0.0  # probability of an injected detour after each action
    detour_kinds: tuple[str, ...] = DETOUR_KINDS
    max_rounds: int = 100
    date: str = ""  # the system prompt's current date (empty: today)
    candidates: int = 2  # results tried per table before searching again
    # gold walker only
    urls_per_visit: int = 5
    max_verify_urls: int = 40  # verification visits cover at most this many target pages
    oracle: bool = False  # tests only: answer with the gold records whatever was seen


@dataclass(frozen=True)
class TaskInfo:
    """What the rollout layer knows about a task (one row of `agent/find_tasks`). The
    question-only teacher reads `question` and nothing else."""

    task_id: str
    kind: str
    variant: str
    question: str
    answer_json: str | None


class _OutOfRounds(Exception):
    """The round budget is spent (one round is kept for the answer)."""


@dataclass
class TeacherPolicy:
    """Builds a trajectory from the question alone (see the module docstring)."""

    tools: ToolBox
    config: TeacherConfig = TeacherConfig()

    def run(self, task: TaskInfo, seed: str) -> Rollout:
        """One rollout for `task`, reading only `task.question`; `seed` draws the injected
        detours."""
        return _Research(self, task.question, random.Random(seed)).solve()


class _Research:
    """One rollout in progress: the trajectory, what the tools showed, the tables read."""

    def __init__(self, teacher: TeacherPolicy, question: str, rng: random.Random) -> None:
        self.tools = teacher.tools
        self.config = teacher.config
        self.rng = rng
        self.plan: QuestionPlan = parse_question(question)
        self.rollout = Rollout.start(question, self.config.date or None)
        self.hits: list[Hit] = []  # every search result seen, in order
        self.used_urls: set[str] = set()  # results that were visited
        self.searches: list[tuple[int, list[str]]] = []  # (step index, queries)
        self.visits: list[dict[str, Any]] = []  # arguments of earlier visits
        self.tables: dict[TableName, Table] = {}
        self.pages: dict[str, list[str]] = {}  # name of a linking page -> its evidence lines
        self.noted = ""  # what the last response showed, said in the next thought
        self.table_urls: dict[TableName, str] = {}
        self.cut: set[TableName] = set()  # tables whose visit response was cut short
        self.rows_searched: set[tuple[TableName, str]] = set()

    # -- acting ---------------------------------------------------------------------------
    def act(
        self, tool: str, arguments: dict[str, Any], thought: str, detour: str = ""
    ) -> Observation:
        if self.rollout.rounds >= self.config.max_rounds - 1:
            raise _OutOfRounds
        observation = self.tools.call(tool, arguments)
        thought, self.noted = " ".join(x for x in (self.noted, thought) if x), ""
        content = assistant_text(thought, call=(tool, arguments))
        self.rollout.add_tool_turn(
            content, observation, tokens=count_tokens(content), detour_kind=detour
        )
        if tool == "search":
            self.searches.append((len(self.rollout.steps) - 1, list(arguments["query"])))
            self.hits += parse_search(observation.text)
        else:
            self.visits.append(dict(arguments))
            self.used_urls.update(arguments["url"])
        if (
            not detour
            and self.config.detour_rate > 0
            and self.rng.random() < self.config.detour_rate
        ):
            self.inject_detour()
        return observation

    def mark(self, step: int, kind: str) -> None:
        """Record an earlier step as the detour it turned out to be."""
        if not self.rollout.steps[step].detour_kind:
            self.rollout.steps[step] = replace(self.rollout.steps[step], detour_kind=kind)

    def inject_detour(self) -> None:
        kind = self.rng.choice(self.config.detour_kinds)
        wanted = [(t.title, t.section) for t in self.plan.tables]
        unused = [
            h
            for h in self.hits
            if h.url not in self.used_urls and not any(self.score(h, *w) >= 1 for w in wanted)
        ]
        if kind == "irrelevant_visit" and unused:
            hit = self.rng.choice(unused)
            self.act(
                "visit",
                {"url": [hit.url], "goal": f"Anything about {hit.title}"},
                f"The result '{hit.title}' might help too; let me look.",
                detour=kind,
            )
        elif kind in ("irrelevant_visit", "reverification") and self.visits:
            again = self.rng.choice(self.visits)
            self.act(
                "visit", dict(again), "Let me double-check what I read earlier.", "reverification"
            )
        elif self.searches:
            query = self.rng.choice(self.searches)[1][0]
            self.act(
                "search",
                {"query": [f"{query} list"]},
                "Maybe another phrasing finds more.",
                detour="redundant_search",
            )

    # -- finding and reading pages --------------------------------------------------------
    def search(self, queries: Sequence[str], thought: str) -> int:
        self.act("search", {"query": list(dict.fromkeys(queries))}, thought)
        return len(self.rollout.steps) - 1

    @staticmethod
    def score(hit: Hit, title: str, section: str = "") -> float:
        """How well a result's title and snippet fit the page wanted (0: not at all)."""
        got, want = normalize(hit.title), normalize(title)
        if not want:
            return 0.0
        if got == want:
            score = 3.0
        else:
            a, b = set(got.split()), set(want.split())
            score = 2.0 * len(a & b) / len(a | b) if a & b else 0.0
        if score == 0:
            return 0.0
        if section:
            score += 2.0 if normalize(section) in normalize(hit.snippet) else 0.0
        elif "|" in hit.snippet:
            score += 1.0  # a snippet of table rows
        return score - 0.01 * hit.rank

    def candidates(self, title: str, section: str = "") -> list[Hit]:
        seen: dict[str, tuple[float, Hit]] = {}
        for hit in self.hits:
            s = self.score(hit, title, section)
            if s >= 1.0 and s > seen.get(hit.url, (0.0, hit))[0]:
                seen[hit.url] = (s, hit)
        ranked = [h for _, h in sorted(seen.values(), key=lambda x: -x[0])]
        same = [h for h in ranked if normalize(h.title) == normalize(title)]
        return same or ranked  # a page of another title only when none has this one

    def read_table(self, name: TableName, goal: str) -> Table | None:
        """Visit the best results for `name` until one shows a table (searching once more,
        with the title alone, when none does)."""
        opened: set[str] = set()
        for attempt in range(2):
            for hit in self.candidates(name.title, name.section):
                if hit.url in opened or len(opened) >= self.config.candidates * (attempt + 1):
                    continue
                opened.add(hit.url)
                where = f" (its snippet reads '{hit.snippet[:60]}')" if hit.snippet else ""
                observation = self.act(
                    "visit",
                    {"url": [hit.url], "goal": goal},
                    f"The result '{hit.title}'{where} should be the table '{name.title}'; "
                    "I open it.",
                )
                pages = parse_visit(observation.text)
                table = parse_table(pages[0].lines) if pages else None
                if table is not None and not has_columns(table, name.columns, name.first_row):
                    self.mark(len(self.rollout.steps) - 1, "wrong_hit")
                    self.noted = (
                        f"The table at {hit.url} is not the question's "
                        "(other columns or another first row)."
                    )
                    continue
                if table is not None and table.rows:
                    self.tables[name] = table
                    self.table_urls[name] = hit.url
                    if pages[0].cut:
                        self.cut.add(name)
                    self.noted = self.note_table(name, table, cut=pages[0].cut)
                    return table
                self.mark(len(self.rollout.steps) - 1, "wrong_hit")
                self.noted = f"The page {hit.url} shows no table of '{name.title}'."
            if attempt == 0:
                self.search(
                    [name.title],
                    f"None of the results was the table '{name.title}'; I search for its "
                    "title alone.",
                )
        return None

    def find_rows(self, wants: Sequence[tuple[TableName, str]]) -> bool:
        """Search for the rows of a cut table that hold the given values: a search snippet
        shows the line of a page that best fits the query, so ``title value`` brings up the row
        the cut response did not show. True when a row was added."""
        wants = [w for w in dict.fromkeys(wants) if w[0] in self.table_urls]
        wants = [w for w in wants if w not in self.rows_searched][:10]
        if not wants:
            return False
        self.rows_searched.update(wants)
        step = len(self.rollout.steps)
        # the words that name the value ("Portuguese language" → "Portuguese"): a snippet is the
        # line sharing most words with the query, and "language" would pick the header row
        self.search(
            [f"{name.title} {bare(value)}" for name, value in wants],
            f"The response was cut before the rows of {join([v for _, v in wants])}; "
            "I search for them.",
        )
        found = parse_search(self.rollout.trajectory.turns[step].observation)
        added = 0
        for name in {n for n, _ in wants}:
            table = self.tables[name]
            rows = list(table.rows)
            for hit in found:
                if hit.url != self.table_urls[name] or "|" not in hit.snippet:
                    continue
                cells = [c.strip().rstrip("…").strip() for c in hit.snippet.split("|")]
                row = tuple((cells + [""] * len(table.header))[: len(table.header)])
                if row not in rows and tuple(table.header) != row:
                    rows.append(row)
                    added += 1
            self.tables[name] = Table(table.header, tuple(rows))
        self.noted = f"The snippets show {added} more row{'s' if added != 1 else ''}."
        return added > 0

    def kp_missing(self) -> list[tuple[TableName, str]]:
        """(table, value) of the rows a KP clause needs that a cut table did not show."""
        solver = KPSolver(self.plan.clauses, self.tables, self.pages, strict=False)
        domains = solver.solve()
        wants = []
        for clause in self.plan.clauses:
            cols = solver.columns(clause) if clause.kind == "row" else None
            if cols is None or clause.table not in self.cut or clause.table is None:
                continue
            table, key, j = cols
            for terms, column, whole in ((clause.key, key, True), (clause.cells, j, False)):
                values = [t.text for t in terms if not t.unknown]
                for t in terms:
                    known = domains.get(t.text, {}) if t.unknown else {}
                    values += list(known.values()) if 0 < len(known) <= 5 else []
                for v in values:
                    # one row per entity; but any number of rows may hold a value, and the
                    # cut may have hidden some of them
                    keys = {value_key(v)}
                    if not whole or not any(value_key(r[column]) in keys for r in table.rows):
                        wants.append((clause.table, v))
        return wants

    def look_up_rows(self) -> None:
        """Rows a cut response hid but the answer needs: a KP task's constants and the values
        its unknowns settle on, a Reverse-Union task's clue values."""
        if self.plan.kind == "kp":
            for _ in range(2):
                if not self.find_rows(self.kp_missing()):
                    return
        elif self.plan.kind == "reverse":
            wants = []
            for name in self.plan.tables:
                table = self.tables.get(name)
                if table is None or name not in self.cut:
                    continue
                for relation, value in self.plan.clues:
                    j = table.column(relation, [value])
                    if j is None or not any(cell_in(r[j], {value_key(value)}) for r in table.rows):
                        wants.append((name, value))
            self.find_rows(wants)

    def read_page(self, name: str) -> list[str]:
        """The evidence lines of the page about `name` (empty when none is found)."""
        for hit in self.candidates(name):
            if normalize(hit.title) != normalize(name):
                continue
            observation = self.act(
                "visit",
                {"url": [hit.url], "goal": f"The articles that the page on {name} links to"},
                f"The result '{hit.title}' is the article on {name}; I read what it mentions.",
            )
            pages = parse_visit(observation.text)
            if pages and pages[0].lines:
                return list(pages[0].lines)
            self.mark(len(self.rollout.steps) - 1, "wrong_hit")
        return []

    def note_table(self, name: TableName, table: Table, cut: bool = False) -> str:
        shown = "shows" if cut else "lists"
        note = (
            f"The table '{name.title}' {shown} {len(table.rows)} rows under the columns "
            f"{join(table.header)}."
        )
        return note + (" The response was cut, so I have only these rows." if cut else "")

    # -- solving --------------------------------------------------------------------------
    def solve(self) -> Rollout:
        plan = self.plan
        records: list[AnswerRecord] = []
        note = ""
        try:
            if plan.tables or plan.kind == "kp":
                link_pages = [
                    t.text for c in plan.clauses if c.kind == "link" for t in c.key if not t.unknown
                ]
                queries = [t.query for t in plan.tables] + link_pages
                what = join([f"'{t.query}'" for t in plan.tables] + [f"'{p}'" for p in link_pages])
                self.search(queries, f"The question names {what}; I search for them.")
                for name in plan.tables:
                    self.read_table(name, visit_goal(plan, name))
                for page in link_pages:
                    self.pages[page] = self.read_page(page)
                self.look_up_rows()
            elif plan.names:
                self.search(list(plan.names), "I search for the names the question quotes.")
            else:
                self.search([self.rollout.trajectory.question[:200]], "I search for the question.")
            records, note = self.answer()
        except _OutOfRounds:
            records, note = self.answer()
            note = "I am out of rounds. " + note
        for step, _ in self.searches:
            if not self.used_from(step):
                self.mark(step, "failed_search")
        answer = format_records(records)
        note, self.noted = " ".join(x for x in (self.noted, note) if x), ""
        content = assistant_text(note, answer=answer)
        self.rollout.add_answer(content, answer, tokens=count_tokens(content))
        self.rollout.completion_tokens = sum(s.tokens for s in self.rollout.steps)
        self.rollout.termination = Termination.ANSWER
        return self.rollout

    def used_from(self, step: int) -> bool:
        """Whether a result of the search at `step` was visited."""
        observation = self.rollout.trajectory.turns[step].observation
        return any(h.url in self.used_urls for h in parse_search(observation))

    def answer(self) -> tuple[list[AnswerRecord], str]:
        """The records and the closing note, from what was read so far."""
        return Solver(self.plan, self.tables, self.pages).answer()


def has_columns(table: Table, columns: Sequence[str], first_row: str = "") -> bool:
    """Whether a table's header starts with the columns a question names it by and its first
    row holds the text the question says it starts with (each always true when the question
    says none): of an article's tables without sections, the one it means.

    >>> has_columns(Table(("Rank", "Country ( team )", "Time"), ()), ["Rank", "Country"])
    True
    >>> has_columns(Table(("Rank", "Athlete"), ()), ["Rank", "Country"])
    False
    >>> has_columns(Table(("Name", "Town"), (("Saab Arena", "Linköping"),)), [], "ABB Arena")
    False
    """
    labels = [normalize(column_label(h)) for h in table.header if column_label(h)]
    if columns and labels[: len(columns)] != [normalize(c) for c in columns]:
        return False
    # the page shows the cell as written, the question its cleaned text: a part of the row
    return not first_row or bool(
        table.rows and normalize(first_row) in normalize(" ".join(table.rows[0]))
    )
