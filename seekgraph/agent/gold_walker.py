"""The GOLD WALKER: a privileged, plan-following policy for tests and ablations (never the default).

It reads the task's structure from the graph — the reasoning tree(s) of a WebLeaper task
(`BUILT_FROM` → Tree/Biclique → Table) or the triples and constants of a WebShaper KP task, the
target set and the answer entities' pages — and walks it with real `search` and `visit` calls:

1. locate: search for the tree root / table title (WebLeaper) or for each leaf constant with its
   relation (WebShaper, deepest layer first);
2. read: visit the table pages by their stored URLs (WebLeaper) or the constants' pages;
3. verify: visit the target entities' pages, a few URLs per call, their names in the goal;
4. answer with each gold record whose entity name (or an alias) occurs in a unit the web
   returned, with those of its attribute values that occur in a unit naming it
   (`revealed_answer`; echoes of its own queries and goals do not count), so its precision is
   1 by construction. (`oracle=True`, for tests only, answers with the whole gold answer.)

It knows what no agent can know (where the answers are and what they are called), so its
rollouts are marked privileged wherever they are exported or reported
(`seekgraph.agent.config.PRIVILEGED_POLICIES`); the default teacher is the question-only
`seekgraph.agent.teacher.TeacherPolicy`. With `detour_rate > 0` it injects recorded detours
(`DETOUR_KINDS`) so pruning can be measured against known truth.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import neo4j

from seekgraph.agent.metrics import alias_map, task_targets
from seekgraph.agent.teacher import TaskInfo, TeacherConfig
from seekgraph.agent.trajectory import Rollout, Termination
from seekgraph.agent.web.responses import turn_units
from seekgraph.agent.web.tools import ToolBox
from seekgraph.common.answers import AnswerRecord, format_records, gold_records
from seekgraph.common.text import normalize
from seekgraph.common.wire import assistant_text, count_tokens
from seekgraph.graphdb import cypher


def revealed_answer(
    gold: list[AnswerRecord], units: list[str], aliases: dict[str, set[str]] | None = None
) -> list[AnswerRecord]:
    """The gold records an agent that read the returned `units` can give (what the web
    returned, `seekgraph.agent.web.responses.returned_units`, never its own queries and
    goals): those whose name, or an alias (`seekgraph.agent.metrics.alias_map`), occurs in a
    unit, each with the values that occur in a unit naming it (whole-phrase match after
    normalisation).

    >>> gold = [AnswerRecord("A B", {"year": ["1980", "1990"]}), AnswerRecord("C")]
    >>> revealed_answer(gold, ["A-B won in 1980.", "C lost in 1990."])
    [AnswerRecord(name='A B', attributes={'year': ['1980']}, entity_id='', rows=()), \
AnswerRecord(name='C', attributes={}, entity_id='', rows=())]
    """
    seen = [f" {normalize(u)} " for u in units]
    out = []
    for record in gold:
        key = normalize(record.name)
        names = {n for n in (aliases or {}).get(key, set()) | {key} if n}
        naming = [h for h in seen if any(f" {n} " in h for n in names)]
        if not naming:
            continue
        values = {
            k: [v for v in vs if normalize(v) and any(f" {normalize(v)} " in h for h in naming)]
            for k, vs in record.attributes.items()
        }
        out.append(
            AnswerRecord(record.name, {k: v for k, v in values.items() if v}, record.entity_id)
        )
    return out


@dataclass
class _Action:
    tool: str
    arguments: dict[str, Any]
    thought: str


@dataclass
class GoldWalkerPolicy:
    """Builds a trajectory for a task from its gold plan; detours are drawn from a seeded RNG."""

    driver: neo4j.Driver
    database: str | None
    tools: ToolBox
    config: TeacherConfig = field(default_factory=TeacherConfig)

    def plan(self, task: TaskInfo) -> list[_Action]:
        """The planned tool calls, in order (without detours)."""
        actions: list[_Action] = []
        if task.kind == "leaper":
            actions += self._leaper_actions(task)
        elif task.kind == "shaper":
            actions += self._shaper_actions(task)
        if not actions:  # no structure found: search the question itself
            actions.append(
                _Action(
                    "search",
                    {"query": [task.question[:200]]},
                    "I will search for the question's main terms.",
                )
            )
        actions += self._verify_actions(task)
        return actions

    def _leaper_actions(self, task: TaskInfo) -> list[_Action]:
        trees = cypher.read(
            self.driver, "agent/find_leaper_plan", database=self.database, task_id=task.task_id
        )
        if not trees:
            return []
        queries = list(
            dict.fromkeys(
                " ".join(x for x in (t["table_title"], t["section_title"]) if x) or t["root"]
                for t in trees
            )
        )
        actions = [
            _Action(
                "search",
                {"query": queries},
                f"The entities come from {len(trees)} list(s); I search for "
                f"{'them' if len(trees) > 1 else 'it'} first.",
            )
        ]
        for tree in trees:
            relations = ", ".join(tree["relations"]) or "details"
            actions.append(
                _Action(
                    "visit",
                    {
                        "url": [tree["table_url"]],
                        "goal": f"Every entry of '{tree['table_title']}' with its {relations}.",
                    },
                    f"The table page of '{tree['table_title']}' lists the entries; I read it.",
                )
            )
        return actions

    def _shaper_actions(self, task: TaskInfo) -> list[_Action]:
        triples = cypher.read(
            self.driver, "agent/find_shaper_plan", database=self.database, task_id=task.task_id
        )
        actions: list[_Action] = []
        seen: set[str] = set()
        for t in triples:
            if not t["constant"] or t["constant"] in seen:
                continue
            seen.add(t["constant"])
            relation = str(t["relation"] or "").replace("_", " ")
            actions.append(
                _Action(
                    "search",
                    {"query": [f"{t['constant']} {relation}".strip()]},
                    f"A leaf of the task is '{t['constant']}' ({relation}); I look it up.",
                )
            )
            if t["constant_url"]:
                actions.append(
                    _Action(
                        "visit",
                        {"url": [t["constant_url"]], "goal": f"{relation} {t['constant']}"},
                        f"I read the page of '{t['constant']}'.",
                    )
                )
        return actions

    def _verify_actions(self, task: TaskInfo) -> list[_Action]:
        targets = cypher.read(
            self.driver, "agent/find_task_targets", database=self.database, task_ids=[task.task_id]
        )
        answer_first = sorted(
            (t for t in targets if t["kind"] == "entity"),
            key=lambda t: (t["role"] != "answer", t["target_id"]),
        )
        ids = [t["target_id"] for t in answer_first][: self.config.max_verify_urls]
        if not ids:
            return []
        names = {t["target_id"]: t["name"] for t in targets}
        pages = cypher.read(
            self.driver, "agent/find_entity_pages", database=self.database, entity_ids=ids
        )
        url_of = {p["entity_id"]: p["url"] for p in pages}
        ordered = [(url_of[i], names[i]) for i in ids if i in url_of]
        step = self.config.urls_per_visit
        actions = []
        for start in range(0, len(ordered), step):
            chunk = ordered[start : start + step]
            who = ", ".join(n for _, n in chunk)
            actions.append(
                _Action(
                    "visit",
                    {
                        "url": [u for u, _ in chunk],
                        "goal": f"Facts about {who} relevant to: {task.question[:200]}",
                    },
                    f"I verify {who} on their own pages.",
                )
            )
        return actions

    def _detour(
        self, rng: random.Random, rollout: Rollout, done: list[_Action]
    ) -> tuple[str, _Action] | None:
        kind = rng.choice(self.config.detour_kinds)
        searches = [a for a in done if a.tool == "search"]
        visits = [a for a in done if a.tool == "visit"]
        if kind == "irrelevant_visit":
            seen = [p for s in rollout.steps for p in s.pages]
            visited = {u for a in visits for u in a.arguments["url"]}
            if seen:
                rows = cypher.read(
                    self.driver,
                    "agent/find_neighbor_pages",
                    database=self.database,
                    page_ids=seen[-5:],
                    limit=50,
                )
                pool = [r["url"] for r in rows if r["url"] not in visited]
                if pool:
                    url = rng.choice(pool)
                    return kind, _Action(
                        "visit",
                        {"url": [url], "goal": "anything related"},
                        "This linked page might help; let me look.",
                    )
            kind = "reverification"
        if kind == "reverification" and visits:
            again = rng.choice(visits)
            return "reverification", _Action(
                "visit", dict(again.arguments), "Let me double-check what I read earlier."
            )
        if searches:
            query = rng.choice(searches).arguments["query"][0]
            return "redundant_search", _Action(
                "search", {"query": [f"{query} list"]}, "Maybe another search phrasing finds more."
            )
        return None

    def run(self, task: TaskInfo, seed: str) -> Rollout:
        """One teacher rollout for `task`; `seed` makes its detours reproducible."""
        rng = random.Random(seed)
        rollout = Rollout.start(task.question, self.config.date or None)
        done: list[_Action] = []
        budget = self.config.max_rounds - 1  # keep one round for the answer
        for action in self.plan(task):
            if rollout.rounds >= budget:
                break
            self._act(rollout, action, "")
            done.append(action)
            if self.config.detour_rate > 0 and rng.random() < self.config.detour_rate:
                detour = self._detour(rng, rollout, done)
                if detour is not None and rollout.rounds < budget:
                    self._act(rollout, detour[1], detour[0])
        gold = gold_records(task.answer_json)
        if not self.config.oracle:
            units = [u for t in rollout.trajectory.turns for u in turn_units(t)]
            gold = revealed_answer(gold, units, self._aliases(task))
        answer = format_records(gold)
        thought = (
            "I have read the sources and verified the entities; here is what they show."
            if gold
            else "The pages I read do not show the answer."
        )
        content = assistant_text(thought, answer=answer)
        rollout.add_answer(content, answer, tokens=count_tokens(content))
        rollout.completion_tokens = sum(s.tokens for s in rollout.steps)
        rollout.termination = Termination.ANSWER
        return rollout

    def _aliases(self, task: TaskInfo) -> dict[str, set[str]]:
        """The known names of the task's targets (link texts, page titles), by name."""
        rows = cypher.read(
            self.driver, "agent/find_task_targets", database=self.database, task_ids=[task.task_id]
        )
        return alias_map(task_targets(rows))

    def _act(self, rollout: Rollout, action: _Action, detour_kind: str) -> None:
        observation = self.tools.call(action.tool, action.arguments)
        content = assistant_text(action.thought, call=(action.tool, action.arguments))
        rollout.add_tool_turn(
            content, observation, tokens=count_tokens(content), detour_kind=detour_kind
        )
